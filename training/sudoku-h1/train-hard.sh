#!/usr/bin/env bash
# sudoku-h1 (issue #32 item 3; training/README.md): makes the hard sets of docs/sudoku-hard.md
# (deterministic for their seeds; skipped when present), the 140,000-row mix (the first 50,000 of
# qqwing_noguess_train.csv, guess-train.csv, hard20-train.csv twice) and fine-tunes the shipped
# model on it (sudoku-h1 started from r4, then shipped; a run started since starts from h1),
# resumable: run it again to continue. One thread, from a worktree of its own.
# RUN (default runs/sudoku-h1) and FLAGS (added to the training command) make its variants, for
# example the deep-supervised one: train-hard.sh ../shared/data/sudoku runs/sudoku-h2 --deep-supervision
#   bash training/sudoku-h1/train-hard.sh SHARED_SUDOKU_DIR [RUN [FLAGS...]]   (../shared/data/sudoku)
set -euo pipefail
cd "$(dirname "$0")/../.."
shared=${1:?usage: train-hard.sh SHARED_SUDOKU_DIR (holds qqwing_noguess_train.csv) [RUN [FLAGS...]]}
run=${2:-runs/sudoku-h1}
shift $(($# < 2 ? $# : 2))
# shellcheck source=training/sudoku-h1/sets.sh
source training/sudoku-h1/sets.sh
sjd() { node bin/sjd.js --threads 1 "$@"; }
if [ ! -s "$d/mix-train.csv" ]; then
  node -e '
    const fs = require("fs");
    const [noguess, guess, hard, out] = process.argv.slice(1);
    const rows = (f) => fs.readFileSync(f, "utf8").trim().split("\n");
    const n = rows(noguess), g = rows(guess), h = rows(hard);
    const cut = (r) => r.map((l) => l.split(",").slice(0, 2).join(","));
    const body = [...cut(n.slice(1, 50001)), ...cut(g.slice(1)), ...cut(h.slice(1)), ...cut(h.slice(1))];
    fs.writeFileSync(out + ".tmp", ["quizzes,solutions", ...body].join("\n") + "\n");
    fs.renameSync(out + ".tmp", out);
  ' "$shared/qqwing_noguess_train.csv" "$d/guess-train.csv" "$d/hard20-train.csv" "$d/mix-train.csv"
fi
args=(train sudoku --out "$run" --loops 3 --steps 3000 --lr 3e-4 --warmup 100 --precision float32
  --eval-every 500 --data "$d/mix-train.csv" --eval-data "$d/guess-valid.csv"
  --eval-size 200 --eval-nfe 64 --eval-sampler adaptive "$@")
# --init names the starting weights of a new run only; a resumed run's weights are its checkpoint's.
if [ -f "$run/checkpoint/state.json" ]; then sjd "${args[@]}" --resume; else sjd "${args[@]}" --init models/sudoku; fi
