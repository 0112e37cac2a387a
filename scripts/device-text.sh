#!/usr/bin/env bash
# Issue 31: the text comparison's models at the paper's size (the 8M DiT, app:text8) on one
# NVIDIA GPU, in one go. Run by scripts/device.sh (TASK=text) once the addon is built, with its
# Node on PATH, and the corpus packed by scripts/device-pack.sh (.device/text8.tar.xz):
#   1. trains every model of MODELS side by side on the GPU (TF32 matmuls, constant AdamW 1e-3
#      as the paper, batch BATCH) until the training share of the budget is spent, then stops
#      them with SIGINT (each checkpoints: a resumable run folder);
#   2. sweeps each model's quality-diversity frontier (11 temperatures at NFE 32/64/128, N
#      samples a point) under every sampler of SAMPLERS that fits it (mdlm for masked models;
#      the others for the hybrid and SJD ones), all side by side;
#   3. exports the masked model, the hybrid one and the SJD model with the best valid-word
#      fraction at NFE 128 under the first sampler, each as its own tar (the device returns at
#      most 8 files of 16 MiB), and the logs, metrics and frontiers as one tar.
# Usage: bash scripts/device-text.sh OUT SECONDS
# Environment: DEVICE (cuda; cpu rehearses it), SIZE (paper), MODELS, BATCH, SEEDS (a list; one
# run of each model at each, named MODEL-sSEED when there are several), STEPS (a cap on every run,
# default 40000), MASKED_STEPS (the masked model's cap, default STEPS), N, SAMPLERS, EVAL_S
# (seconds kept for step 2 and 3), EVAL_THREADS (each sweep's, default 1), EXPORTS (the models to export at every seed instead of step 3's
# choice; "none" for none).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bash scripts/device-text.sh OUT SECONDS}
budget=${2:?usage: bash scripts/device-text.sh OUT SECONDS}
device=${DEVICE:-cuda}
size=${SIZE:-paper}
models=${MODELS:-masked hybrid sjd-add-1 sjd-row-1 sjd-add-2}
batch=${BATCH:-128}
seeds=${SEEDS:-${SEED:-0}}
steps=${STEPS:-40000}
masked_steps=${MASKED_STEPS:-$steps}
exports=${EXPORTS:-}
n=${N:-64}
samplers=${SAMPLERS:-ancestral sjd}
eval_s=${EVAL_S:-200}
t0=$(date +%s)
left() { echo $((budget - ($(date +%s) - t0))); }
say() { echo "[device-text.sh $(($(date +%s) - t0)) s] $*"; }
[ -f .device/text8.tar.xz ] || {
  say "FAILED: no .device/text8.tar.xz (scripts/device-pack.sh SUDOKU_DIR TEXT8_DIR)"
  exit 1
}
tf32=()
[ "$device" = cpu ] || tf32=(--tf32)
work=$(mktemp -d)
mkdir -p "$work/results"
xz -dc .device/text8.tar.xz | tar -C "$work" -xf -
corpus=$work/text8

# the process flags of a comparison model name (process/choice.ts parseProcessName)
flags() {
  case $1 in
  masked | hybrid) echo "--process $1" ;;
  sjd-row-*) echo "--process sjd --blend gauss1d-row --sigma-w ${1#sjd-row-}" ;;
  sjd-add-*) echo "--process sjd --blend gauss1d --sigma-w ${1#sjd-add-}" ;;
  sjd-*) echo "--process sjd --sigma-w ${1#sjd-}" ;;
  *) return 1 ;;
  esac
}

# the runs: each model at each seed (a run is named MODEL, or MODEL-sSEED with several seeds)
runs=()
for seed in $seeds; do
  for m in $models; do
    flags "$m" >/dev/null || { say "unknown model $m"; exit 1; }
    if [ "$seeds" = "$seed" ]; then runs+=("$m"); else runs+=("$m-s$seed"); fi
  done
done
model_of() { echo "${1%-s[0-9]*}"; }
seed_of() { case $1 in *-s[0-9]*) echo "${1##*-s}" ;; *) echo "$seeds" ;; esac; }

# 1. training, side by side
train_s=$(($(left) - eval_s))
say "training ${runs[*]} (size $size, batch $batch, at most $steps steps, masked $masked_steps) for $train_s s on $device"
for r in "${runs[@]}"; do
  m=$(model_of "$r")
  f=$(flags "$m")
  cap=$steps
  [ "$m" = masked ] && cap=$masked_steps
  # shellcheck disable=SC2086
  (timeout -s INT "$train_s" node bin/sjd.js --threads 2 --device "$device" "${tf32[@]}" train text --size "$size" $f \
    --precision float32 --batch "$batch" --steps "$cap" --seed "$(seed_of "$r")" --eval-every 1000 --data "$corpus" --out "$work/run-$r" 2>&1 |
    tr '\r' '\n' | grep -v '|' >"$work/results/train-$r.log") &
done
wait
for m in "${runs[@]}"; do
  cp "$work/run-$m/metrics.csv" "$work/results/metrics-$m.csv" 2>/dev/null
  cp "$work/run-$m/config.json" "$work/results/config-$m.json" 2>/dev/null
  say "$m: $(tail -1 "$work/run-$m/metrics.csv" 2>/dev/null | cut -c1-160)"
done

# 2. frontiers, side by side
ev=$(($(left) - 35))
say "frontiers (N $n, samplers: ${samplers}; $ev s)"
for m in "${runs[@]}"; do
  [ -d "$work/run-$m/checkpoint" ] || continue
  list=$samplers
  [ "$(model_of "$m")" = masked ] && list=mdlm
  for s in $list; do
    (timeout "$ev" node bin/sjd.js --threads "${EVAL_THREADS:-1}" --device "$device" "${tf32[@]}" eval text --model "$work/run-$m" --frontier --sampler "$s" \
      -n "$n" --data "$corpus" --out "$work/results/frontier-$m-$s" >"$work/results/frontier-$m-$s.log" 2>&1) &
  done
done
wait
for f in "$work"/results/frontier-*.log; do say "$(basename "$f" .log): $(grep -E '^NFE (32|64|128): max' "$f" | tr '\n' ' ')"; done

# 3. exports: masked, hybrid and the best SJD model at NFE 128 under the first sampler
first=${samplers%% *}
# (from the per-point lines, so a sweep cut short by the clock still counts)
best=$(for m in "${runs[@]}"; do
  case $m in sjd-*) v=$(grep -E '^NFE 128 temperature' "$work/results/frontier-$m-$first.log" 2>/dev/null | sed -E 's/.*>= 5 ([0-9.]+)%.*/\1/' | sort -rn | head -1); [ -n "$v" ] && echo "$v $m" ;; esac
done | sort -rn | head -1 | cut -d' ' -f2)
picks="masked hybrid $best"
if [ -n "$exports" ]; then
  picks=
  for r in "${runs[@]}"; do case " $exports " in *" $(model_of "$r") "*) picks="$picks $r" ;; esac; done
fi
for m in $picks; do
  [ -d "$work/run-$m/checkpoint" ] || continue
  node bin/sjd.js export --run "$work/run-$m" --out "$work/model-$m" >/dev/null && tar -C "$work" -cf "$out/model-$m.tar" "model-$m" && say "model-$m.tar: $(du -b "$out/model-$m.tar" | cut -f1) bytes"
done
tar -C "$work" -cJf "$out/text-results.tar.xz" results
say "done in $(($(date +%s) - t0)) s"
rm -rf "$work"
