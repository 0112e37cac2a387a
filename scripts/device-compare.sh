#!/usr/bin/env bash
# Runs of resumable `sjd compare` comparisons worked on one NVIDIA GPU, to be finished or kept
# here (issue 31: the comparisons' CPU queues take tens of CPU-hours; a lent H200 trained and
# swept a `cpu`-size text model of the text comparison in about two minutes). Run by
# scripts/device.sh (TASK=compare) once the addon is built, with its Node on PATH:
#   1. unpacks what scripts/device-pack.sh packed: the text corpus into runs/text8, Fashion-MNIST
#      at 16 grey levels (IMAGES=1) where the image task reads it;
#   2. for each comparison, copies its kept results (a tracked folder such as
#      training/text-compare-v2) into its runs folder, so `sjd compare` skips the runs already
#      scored, as scripts/text-compare.sh does;
#   3. runs WORKERS copies of `sjd --device DEVICE compare ARGS --out RUNS --no-wait` for each
#      comparison, all side by side (each worker takes a run no other holds), stopped with SIGINT
#      when the budget's share is spent (training checkpoints at the step it is on; a frontier
#      keeps its points);
#   4. returns what the runs came to in at most 8 files (the device's limit): workers.log; the
#      finished runs' results (what keep-results.sh keeps) as results-N.tar.xz for comparison N;
#      the runs stopped mid-way with their checkpoints as one tar in parts of 15 MiB
#      (partial.tar.partNN), the most advanced first while 48 MiB and the file count allow.
#      Here, in the checkout the comparisons run from: `tar -xJf results-N.tar.xz -C RUNS` and
#      `cat partial.tar.part* | tar -x` (its paths are RUNS/RUN), then run them as before.
# The device draws from the run's CPU generator as here (docs/gpu.md), in float32 without TF32,
# so a run is the same algorithm as on the CPU, not the same bits.
# Usage: bash scripts/device-compare.sh OUT SECONDS
# Environment: DEVICE (cuda; cpu rehearses it); CMP_1, CMP_2, ... each one comparison as
# "RUNS|KEPT|ARGS": its --out folder, its kept results (may be empty) and the compare subcommand
# with its flags but --out (e.g. "runs/text-compare-v2|training/text-compare-v2|text --steps 3000
# --size cpu -n 64 --data runs/text8 --seeds 2 --models hybrid,sjd-row-1 --samplers ancestral");
# WORKERS (each comparison's, default 2), THREADS (each worker's, default 2).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bash scripts/device-compare.sh OUT SECONDS}
budget=${2:?usage: bash scripts/device-compare.sh OUT SECONDS}
device=${DEVICE:-cuda}
workers=${WORKERS:-2}
t0=$(date +%s)
say() { echo "[device-compare.sh $(($(date +%s) - t0)) s] $*"; }
cmps=()
for i in $(seq 1 9); do
  v="CMP_$i"
  [ -n "${!v:-}" ] && cmps+=("${!v}")
done
[ ${#cmps[@]} -gt 0 ] || {
  say "FAILED: no comparison (CMP_1=\"RUNS|KEPT|ARGS\")"
  exit 2
}
mkdir -p "$out"
logs=$(mktemp -d)
docs=$(mktemp -d) # the workers' reports: not returned (the comparisons here write their own)

# 1. data
if [ -f .device/text8.tar.xz ] && [ ! -f runs/text8/train.txt ]; then
  mkdir -p runs && xz -dc .device/text8.tar.xz | tar -C runs -xf -
fi
fm=/usr/share/datasets/fashion-mnist # where the image task reads it (dataset.ts)
if [ -f .device/fashion-mnist-16.tar.xz ] && [ ! -d "$fm" ]; then
  mkdir -p "$fm" && xz -dc .device/fashion-mnist-16.tar.xz | tar -C "$fm" -xf -
fi

# 2-3. kept results, then the workers, stopped 30 s before the budget ends (packing needs it)
stop=$((budget - 30 - ($(date +%s) - t0)))
[ "$stop" -ge 20 ] || {
  say "FAILED: no time left ($stop s)"
  exit 1
}
for c in "${cmps[@]}"; do
  IFS='|' read -r runs kept _ <<<"$c"
  mkdir -p "$runs"
  [ -n "$kept" ] && [ -d "$kept" ] && bash scripts/restore-results.sh "$kept" "$runs"
done
stamp=$(mktemp) # what the workers write is newer
end=$(($(date +%s) + stop)) # every worker stops then, however late it started
n=0
for c in "${cmps[@]}"; do
  n=$((n + 1))
  IFS='|' read -r runs _ args <<<"$c"
  say "comparison $n: $workers workers of sjd --device $device compare $args --out $runs (for $stop s)"
  for w in $(seq 1 "$workers"); do
    # shellcheck disable=SC2086
    (timeout -s INT -k 15 "$((end - $(date +%s)))" node bin/sjd.js --threads "${THREADS:-2}" --device "$device" compare $args \
      --out "$runs" --no-wait --doc "$docs/report-$n-$w.md" 2>&1 | tr '\r' '\n' | grep -v '|' >"$logs/$n-$w.log") &
    sleep 2 # each claims its run before the next looks
  done
done
wait
for f in "$logs"/*.log; do
  echo "== worker $(basename "$f" .log)"
  cat "$f"
done >"$out/workers.log"
for f in "$logs"/*.log; do say "worker $(basename "$f" .log): $(tail -1 "$f")"; done

# 4. what came of it: finished runs' results per comparison; stopped runs with their weights
partial=() # "STEP RUNS/NAME"
n=0
for c in "${cmps[@]}"; do
  n=$((n + 1))
  IFS='|' read -r runs _ _ <<<"$c"
  res=$(mktemp -d) # what keep-results.sh keeps: the runs scored at every point
  bash scripts/keep-results.sh "$runs" "$res" >/dev/null
  finished=()
  for run in "$runs"/*/; do
    name=$(basename "$run")
    [ -n "$(find "$run" -newer "$stamp" -type f | head -1)" ] || continue # untouched here
    if [ -d "$res/$name" ]; then
      finished+=("$name")
    elif [ -d "$run/checkpoint" ]; then
      partial+=("$(node -p "require('./${run}checkpoint/state.json').step" 2>/dev/null || echo 0) ${run%/}")
    fi
  done
  [ ${#finished[@]} -gt 0 ] && tar -C "$res" -cJf "$out/results-$n.tar.xz" "${finished[@]}" &&
    say "comparison $n finished here: ${finished[*]} (results-$n.tar.xz)"
  rm -rf "$res"
done
if [ ${#partial[@]} -gt 0 ]; then
  # (uncompressed: float weights hardly compress, and xz would spend the budget's last seconds)
  room=$((8 - $(find "$out" -maxdepth 1 -type f | wc -l)))
  room=$((room > 3 ? 3 : room)) # 3 parts of 15 MiB at most, 48 MiB with the rest
  take=()
  bytes=0
  while read -r step dir; do
    b=$(du -sb "$dir" | cut -f1)
    if [ $(((bytes + b + 15728639) / 15728640)) -le "$room" ]; then
      take+=("$dir")
      bytes=$((bytes + b))
      say "$dir: stopped at step $step, returned with its checkpoint"
    else
      say "$dir: stopped at step $step, NOT returned (no room in the device's 8 files of 16 MiB)"
    fi
  done < <(printf '%s\n' "${partial[@]}" | sort -rn)
  [ ${#take[@]} -gt 0 ] && tar -cf - "${take[@]}" | split -b 15M -d - "$out/partial.tar.part"
fi
rm -rf "$stamp" "$docs" "$logs"
say "done in $(($(date +%s) - t0)) s"
