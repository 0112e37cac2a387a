#!/usr/bin/env bash
# bfloat16 autocast training against float32, task by task: `sjd train TASK --size cpu` (the
# shipped models' size, their default data: Sudoku's generated puzzles, the embedded text, Debian's
# Fashion-MNIST) for 1,000 steps at seeds 0 and 1, held-out loss every 100 steps (metrics.csv),
# one thread. Each run is resumed where it stopped (rerun the script to go on; RUN.done marks a
# finished one; training/precision-training holds the runs kept at a session's stop); then
# scripts/precision-report.mjs adds their curves to docs/reports/precision.md.
#   scripts/precision-training.sh [OUT]
set -euo pipefail
out=${1:-runs/precision-training}
mkdir -p "$out"
# runs kept from another machine (training/precision-training: finished ones with their RUN.done,
# one stopped part-way with its checkpoint) go on from where they were; nothing here is replaced
if [ -d training/precision-training ]; then cp -rn training/precision-training/. "$out"/; fi
sjd() { node bin/sjd.js --threads 1 "$@"; }
for task in sudoku text image; do
  for seed in 0 1; do
    for p in float32 bfloat16; do
      run=$out/$task-$p-s$seed
      [ -e "$run.done" ] && continue
      echo "$(date -u +%H:%M:%S) $run"
      if [ -d "$run/checkpoint" ]; then
        sjd train "$task" --resume --out "$run"
      else
        rm -rf "$run" # this script's own folder, stopped before its first checkpoint
        sjd train "$task" --size cpu --steps 1000 --eval-every 100 --seed "$seed" --precision "$p" --out "$run"
      fi
      touch "$run.done"
    done
  done
done
echo "$(date -u +%H:%M:%S) done"
