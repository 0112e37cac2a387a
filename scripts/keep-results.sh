#!/usr/bin/env bash
# Keeps a comparison's results without its weights: for each run of RUNS that is scored (a
# cached frontier-*.json, scores*.json or infill-*.json; a frontier's partial trace is not), its
# config, manifest, metrics, score caches and learned hazard weights (hazard-weights.json) are
# copied into KEEP (a tracked folder such as training/text-compare-v2); a run being trained again
# is left as KEEP has it. `sjd compare` skips a run scored at every point, so copying KEEP back
# into a fresh RUNS resumes the comparison on another machine without training those runs again
# (scripts/text-compare.sh and scripts/image-compare.sh do that first, with scripts/restore-results.sh).
#   scripts/keep-results.sh RUNS KEEP
set -euo pipefail
if [ $# -ne 2 ] || [ ! -d "$1" ]; then
  echo "usage: scripts/keep-results.sh RUNS KEEP (RUNS: a comparison's --out folder)" >&2
  exit 2
fi
runs=$1
keep=$2
for run in "$runs"/*/; do
  name=$(basename "$run")
  shopt -s nullglob
  scored=()
  for f in "$run"frontier-*.json "$run"scores*.json "$run"infill-*.json; do
    # a stopped trace's points (*.partial.json) belong to the weights that traced them: not kept
    [[ $f == *.partial.json ]] || scored+=("$f")
  done
  [ ${#scored[@]} -eq 0 ] && continue
  # a kept run being trained again (src/train/kept-run.ts holds its kept metrics aside meanwhile):
  # its record in KEEP stands until the retrained run is settled against it
  [ -e "${run}kept-metrics.csv" ] && continue
  mkdir -p "$keep/$name"
  # results the run set aside (FILE.stale: trained again, it did not repeat the kept run) scored
  # other weights: the kept copies go, unless the run has scored them again
  for f in "$run"*.stale; do
    base=$(basename "${f%.stale}")
    [ -e "$run$base" ] || rm -f "$keep/$name/$base"
  done
  for f in "$run"config.json "$run"manifest.json "$run"metrics.csv "$run"hazard-weights.json "${scored[@]}"; do
    [ -f "$f" ] && cp "$f" "$keep/$name/"
  done
  shopt -u nullglob
done
