#!/usr/bin/env bash
# Keeps a comparison's results without its weights: for each run of RUNS that is scored (a
# cached frontier-*.json, scores*.json, infill-*.json or final-eval.json; a frontier's partial
# trace is not), its config, manifest, metrics, score caches and learned hazard weights
# (hazard-weights.json) are copied into KEEP (a tracked folder such as training/text-compare-v2);
# a run being trained again is left as KEEP has it. `sjd compare` skips a run scored at every
# point, so copying KEEP back into a fresh RUNS resumes the comparison on another machine without
# training those runs again (scripts/text-compare.sh and scripts/image-compare.sh do that first,
# with scripts/restore-results.sh).
# With --with-checkpoints (a session that stops mid-queue) every run that has a checkpoint is kept
# with it, scored or not, and with what a stopped scoring did on it (*.partial.json), so that a
# run still training or being scored resumes exactly on the next machine; without it a kept
# checkpoint and its partial files go once the run is kept as results.
#   scripts/keep-results.sh RUNS KEEP [--with-checkpoints]
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ] || [ ! -d "$1" ] || { [ $# -eq 3 ] && [ "$3" != --with-checkpoints ]; }; then
  echo "usage: scripts/keep-results.sh RUNS KEEP [--with-checkpoints] (RUNS: a comparison's --out folder)" >&2
  exit 2
fi
runs=$1
keep=$2
checkpoints=$([ $# -eq 3 ] && echo 1 || echo 0)
for run in "$runs"/*/; do
  name=$(basename "$run")
  shopt -s nullglob
  scored=()
  for f in "$run"frontier-*.json "$run"scores*.json "$run"infill-*.json "$run"final-eval.json; do
    # a stopped trace's points (*.partial.json) belong to the weights that traced them: not kept
    [ -f "$f" ] && [[ $f != *.partial.json ]] && scored+=("$f")
  done
  training=$([ "$checkpoints" = 1 ] && [ -f "${run}checkpoint/state.json" ] && echo 1 || echo 0)
  [ ${#scored[@]} -eq 0 ] && [ "$training" = 0 ] && continue
  # a kept run being trained again (src/lab/kept-run.ts holds its kept metrics aside meanwhile):
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
  # the checkpoint: replaced whole by the run's (a copy beside it, then a rename), or gone
  if [ "$training" = 1 ]; then
    rm -rf "$keep/$name/checkpoint.new"
    cp -r "${run}checkpoint" "$keep/$name/checkpoint.new"
    rm -rf "$keep/$name/checkpoint"
    mv "$keep/$name/checkpoint.new" "$keep/$name/checkpoint"
    # what a stopped scoring has done on these weights (a frontier's trace, the images drawn so
    # far: *.partial.json) travels with them; one the run has since finished goes
    for f in "$keep/$name/"*.partial.json; do
      [ -e "$run$(basename "$f")" ] || rm -f "$f"
    done
    for f in "$run"*.partial.json; do cp "$f" "$keep/$name/"; done
  else
    rm -rf "$keep/$name/checkpoint"
    rm -f "$keep/$name/"*.partial.json
  fi
  shopt -u nullglob
done
