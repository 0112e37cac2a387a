#!/usr/bin/env bash
# Sudoku's missing rows of tab:sudoku_schedule_ablations at the comparison's budget
# (docs/reports/sudoku/comparison.md: `cpu` size, 2 loops, 750 steps, 500 held-out puzzles,
# confidence 32 NFE, adaptive 64): the two autoregressive baselines (solver order, left to right)
# and the masked process (MDM), seed by seed (0, 1, 2), one thread, resumable (run it again to
# continue). Runs kept in training/sudoku-baselines (scripts/keep-results.sh, with
# --with-checkpoints when a session stops mid-run) are copied in first. Run it from a worktree of
# its own (git worktree add ../cmpsud; npm ci there), with the puzzles' folder as its argument:
#   scripts/sudoku-baselines.sh ../shared/data/sudoku
set -euo pipefail
if [ $# -ne 1 ] || [ ! -f "$1/qqwing_noguess_train.csv" ]; then
  echo "usage: scripts/sudoku-baselines.sh DATA (DATA: the folder of qqwing_noguess_train.csv and qqwing_noguess_test.csv)" >&2
  exit 2
fi
data=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
runs=runs/sudoku-baselines
mkdir -p "$runs"
if [ -d training/sudoku-baselines ]; then bash scripts/restore-results.sh training/sudoku-baselines "$runs"; fi
common=(--threads "${THREADS:-1}" compare sudoku --out "$runs" --steps 750 --eval-every 250 --size cpu
  --loops 2 --limit 500 --nfe 32 --adaptive-nfe 64 --data "$data/qqwing_noguess_train.csv"
  --eval-data "$data/qqwing_noguess_test.csv" --doc docs/reports/sudoku/comparison-baselines.md)
for seed in 0 1 2; do
  node bin/sjd.js "${common[@]}" --seeds "$seed" --models ar-solver,ar-ltr,masked
done
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,ar-ltr,ar-solver
