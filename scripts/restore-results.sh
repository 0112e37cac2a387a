#!/usr/bin/env bash
# Copies a comparison's kept results (scripts/keep-results.sh's KEEP) into its --out folder RUNS,
# so that `sjd compare` resumes where they end: each kept file is copied unless RUNS already has
# it, or has it set aside as FILE.stale (src/lab/kept-run.ts: a run trained again that did not
# repeat the kept one; the kept caches scored other weights and must not come back beside the
# new ones). A kept checkpoint (keep-results.sh --with-checkpoints) comes back unless the run
# has one: the run resumes from it.
#   scripts/restore-results.sh KEEP RUNS
set -euo pipefail
if [ $# -ne 2 ] || [ ! -d "$1" ]; then
  echo "usage: scripts/restore-results.sh KEEP RUNS (KEEP: a folder of kept results)" >&2
  exit 2
fi
keep=$1
runs=$2
mkdir -p "$runs"
shopt -s nullglob
for run in "$keep"/*/; do
  name=$(basename "$run")
  mkdir -p "$runs/$name"
  for f in "$run"*; do
    target="$runs/$name/$(basename "$f")"
    [ -e "$target" ] || [ -e "$target.stale" ] || cp -r "$f" "$target"
  done
done
