#!/usr/bin/env bash
# tab:sudoku_schedule_ablations in the paper's own setting at this machine's scale: one plain
# transformer (`--network plain`: dense attention, no structure embeddings, one pass) at the `cpu`
# width and depth for SJD (the constraint-graph W), MDM (masked) and CADD (hybrid, W = I), and the
# autoregressive baselines (clues as a prefix, then the blanks left to right or in the solver's
# order) with the same parameter count; three seeds each, 30,000 steps of 128 boards in bfloat16,
# evaluated every 1,000 steps on the first 200 held-out puzzles (takeoff, collapse) and at the end
# on the first 1,000 with the model alone. Seed by seed, the diffusion runs first, one thread,
# resumable (run it again to continue). Runs kept in training/sudoku-paper-setting
# (scripts/keep-results.sh, with --with-checkpoints when a session stops mid-run) are copied in
# first. Run it from a worktree of its own (git worktree add ../cmp-sudoku; npm ci there), with the
# puzzles' folder as its argument. A second worker on the same machine runs it again beside the
# first with --no-wait (each `sjd compare` then takes the runs the other does not hold and leaves
# the held ones to it; whichever finishes last writes the full report):
#   scripts/sudoku-paper-setting.sh ../shared/data/sudoku [--no-wait]
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -f "$1/qqwing_noguess_train.csv" ] || { [ $# -eq 2 ] && [ "$2" != --no-wait ]; }; then
  echo "usage: scripts/sudoku-paper-setting.sh DATA [--no-wait] (DATA: the folder of qqwing_noguess_train.csv and qqwing_noguess_test.csv)" >&2
  exit 2
fi
data=$(cd "$1" && pwd)
share=("${@:2}")
cd "$(dirname "$0")/.."
# from here on, named from the repository's root (so the report's reproduce line runs from a clone)
data=$(realpath --relative-to=. "$data")
runs=runs/sudoku-paper-setting
mkdir -p "$runs"
if [ -d training/sudoku-paper-setting ]; then bash scripts/restore-results.sh training/sudoku-paper-setting "$runs"; fi
common=(--threads "${THREADS:-1}" compare sudoku --out "$runs" --steps 30000 --eval-every 1000
  --size cpu --network plain --precision bfloat16 --limit 1000 --nfe 32 --adaptive-nfe 64
  --data "$data/qqwing_noguess_train.csv" --eval-data "$data/qqwing_noguess_test.csv"
  --doc docs/reports/sudoku/paper-setting.md "${share[@]}")
for seed in 0 1 2; do
  node bin/sjd.js "${common[@]}" --seeds "$seed" --models sjd,masked,hybrid
done
for seed in 0 1 2; do
  node bin/sjd.js "${common[@]}" --seeds "$seed" --models ar-solver,ar-ltr
done
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models sjd,masked,hybrid,ar-solver,ar-ltr
