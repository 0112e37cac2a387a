#!/usr/bin/env bash
# float32 against bfloat16 sampling, task by task, with the shipped models and the commands as a
# user runs them (`sjd eval ... --json --precision P`), one thread: Sudoku on the first 2,000
# no-guess test puzzles and 2,000 generated puzzles that need search (guess-test of
# docs/sudoku-hard.md), at the defaults (seed 0) and with the model alone (no rules, one attempt;
# seeds 0 and 1); text at NFE 128 (valid and unique words: the frontier's point at the default
# temperature; seeds 0-2); images, FD at NFE 64 and 256 (seeds 0-2, IMAGES samples each). Each
# result is one JSON file in OUT, skipped when it is there (rerun to resume); then
# scripts/precision-report.mjs writes docs/reports/precision.md from them.
#   scripts/precision-quality.sh SUDOKU_DIR [OUT] [IMAGES]
#   (SUDOKU_DIR: the folder of qqwing_noguess_test.csv, e.g. ../shared/data/sudoku)
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/qqwing_noguess_test.csv" ]; then
  echo "usage: scripts/precision-quality.sh SUDOKU_DIR [OUT] [IMAGES] (SUDOKU_DIR holds qqwing_noguess_test.csv)" >&2
  exit 2
fi
noguess=$1/qqwing_noguess_test.csv
out=${2:-runs/precision-quality}
images=${3:-500}
mkdir -p "$out"
sjd() { node bin/sjd.js --threads 1 "$@"; }

# one result: NAME, then the command's arguments; its --json line kept as OUT/NAME.json
one() {
  local name=$1
  shift
  [ -s "$out/$name.json" ] && return 0
  echo "$(date -u +%H:%M:%S) $name: sjd $*"
  sjd "$@" --json > "$out/$name.out" 2> "$out/$name.err"
  tail -n 1 "$out/$name.out" > "$out/$name.json.tmp" && mv "$out/$name.json.tmp" "$out/$name.json"
}

guess=$out/guess-test.csv
[ -s "$guess" ] || sjd data sudoku --out "$guess" --count 2000 --min-nodes 1 --seed 101

# each figure at float32 then at bfloat16, so that a stopped run leaves pairs
for set in noguess guess; do
  data=$noguess
  [ "$set" = guess ] && data=$guess
  for p in float32 bfloat16; do
    one "sudoku-$set-defaults-$p-s0" eval sudoku --data "$data" --limit 2000 --seed 0 --workers 1 --precision "$p"
  done
done
for s in 0 1 2; do
  for p in float32 bfloat16; do
    one "text-nfe128-$p-s$s" eval text --nfe 128 -n 64 --seed "$s" --precision "$p"
  done
done
for s in 0 1; do
  for set in noguess guess; do
    data=$noguess
    [ "$set" = guess ] && data=$guess
    for p in float32 bfloat16; do
      one "sudoku-$set-alone-$p-s$s" eval sudoku --data "$data" --limit 2000 --seed "$s" --workers 1 --no-rules --retries 0 --precision "$p"
    done
  done
done
for s in 0 1 2; do
  for nfe in 64 256; do
    for p in float32 bfloat16; do
      one "image-nfe$nfe-$p-s$s" eval image --nfe "$nfe" -n "$images" --seed "$s" --precision "$p"
    done
  done
done
echo "$(date -u +%H:%M:%S) done"
