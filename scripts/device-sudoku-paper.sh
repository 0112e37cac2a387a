#!/usr/bin/env bash
# tab:sudoku_schedule_ablations at the paper's model size on one NVIDIA GPU, in minutes: SJD (the
# constraint-graph W, sigma_W = 1.5), MDM (masked) and CADD (hybrid, W = I) as the paper's plain
# transformer (`--size paper --network plain`: 3 layers of width 384, 12 heads, dense attention,
# no structure embeddings, one pass; batch 128), trained side by side on the same GPU for the same
# number of steps in bfloat16 autocast (as the CPU queue, scripts/sudoku-paper-setting.sh), then
# scored with the model alone. Run by scripts/device.sh (TASK=sudoku-paper)
# once the addon is built, with its Node on PATH and the Sudoku CSVs packed in .device/:
#   1. a calibration: the three train 100 steps side by side, and the slowest one's step time
#      (tokens/s of its last logged window) sets the step count that fits the budget;
#   2. the three runs, seed 0, that many steps each: AdamW at 1e-3 (the paper's 3e-4 is for
#      200,000 steps), 1,000 warm-up steps, cosine to the end; evaluated every tenth of the run on
#      the first 200 held-out puzzles (the confidence policy at 32 NFE), so takeoff shows;
#   3. each scored on the first LIMIT held-out puzzles (default 2,000) with the model alone (no
#      rules, one attempt): the adaptive sampler at 64 NFE and the confidence policy at 32 NFE;
#   4. a table (model, steps, takeoff, held-out accuracy during training, final solve rates) in
#      OUT/table.md, and each run's config, manifest, metrics, log and scores (no weights) in
#      OUT/sudoku-paper.tar.xz.
# Usage: bash scripts/device-sudoku-paper.sh OUT SECONDS
# Environment: DEVICE (cuda; cpu rehearses it), SIZE (paper; tiny rehearses it), LIMIT (2000),
# THREADS (each run's CPU threads, default 4).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bash scripts/device-sudoku-paper.sh OUT SECONDS}
budget=${2:?usage: bash scripts/device-sudoku-paper.sh OUT SECONDS}
device=${DEVICE:-cuda}
size=${SIZE:-paper}
limit=${LIMIT:-2000}
threads=${THREADS:-4}
models=(sjd masked hybrid)
t0=$(date +%s)
left() { echo $((budget - ($(date +%s) - t0))); }
say() { echo "[device-sudoku-paper.sh $(($(date +%s) - t0)) s] $*"; }
mkdir -p "$out"
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
xz -dc .device/sudoku-train.csv.xz >"$data/train.csv" || exit 1
xz -dc .device/sudoku-test.csv.xz >"$data/test.csv" || exit 1
sjd() { node bin/sjd.js --threads "$threads" --device "$device" "$@"; }
train() { # seconds model dir steps eval-every [flags]: stopped by SIGINT (a checkpoint) after seconds
  local seconds=$1 model=$2 dir=$3 steps=$4 every=$5
  shift 5
  timeout -s INT -k 20 "$seconds" node bin/sjd.js --threads "$threads" --device "$device" \
    train sudoku --size "$size" --network plain --process "$model" --precision bfloat16 \
    --seed 0 --steps "$steps" \
    --eval-every "$every" --eval-size 200 --eval-nfe 32 --eval-sampler confidence \
    --data "$data/train.csv" --eval-data "$data/test.csv" --out "$dir" "$@" 2>&1 | tr '\r' '\n' | grep -v '|'
}

# 1. calibration, side by side as the runs will be
say "calibrating: ${models[*]} side by side, 100 steps each, $size size on $device"
for m in "${models[@]}"; do train 120 "$m" "$data/cal-$m" 100 100 >"$data/cal-$m.log" &
done
wait
step_s=$(node -e '
  const fs = require("fs");
  let worst = 0;
  for (const f of process.argv.slice(1)) {
    const rows = fs.readFileSync(f, "utf8").trim().split("\n");
    const head = rows[0].split(","), last = rows.at(-1).split(",");
    const c = JSON.parse(fs.readFileSync(f.replace("metrics.csv", "config.json"), "utf8"));
    const tps = Number(last[head.indexOf("tokens_per_s")]);
    worst = Math.max(worst, (c.batch * 81) / tps);
  }
  console.log(worst.toFixed(4));' "$data"/cal-*/metrics.csv) || {
  say "FAILED: calibration ($(tail -3 "$data"/cal-*.log))"
  exit 1
}
# the time left less the scoring's (a third of a minute a model on a GPU) and a margin; the
# evaluations during training cost about a tenth more
train_s=$(($(left) - 90))
steps=$(node -e "console.log(Math.max(100, Math.floor(0.7 * $train_s / ($step_s * 1.1) / 100) * 100))")
every=$((steps / 10))
say "a step takes $step_s s with three side by side: $steps steps each in ~$train_s s (evaluated every $every)"

# 2. the runs
runs="$out/sudoku-paper"
mkdir -p "$runs"
for m in "${models[@]}"; do
  train "$train_s" "$m" "$runs/run-$m" "$steps" "$every" --lr 1e-3 --warmup 1000 >"$runs/train-$m.log" &
done
wait
say "trained: $(for m in "${models[@]}"; do echo -n "$m $(tail -1 "$runs/run-$m/metrics.csv" | cut -d, -f1) steps; "; done)"

# 3. scores, the model alone, side by side
for m in "${models[@]}"; do
  (
    sjd eval sudoku --model "$runs/run-$m" --data "$data/test.csv" --limit "$limit" --no-rules --retries 0 \
      --sampler adaptive --nfe 64 --json >"$runs/eval-$m-adaptive.txt" 2>&1
    sjd eval sudoku --model "$runs/run-$m" --data "$data/test.csv" --limit "$limit" --no-rules --retries 0 \
      --sampler confidence --nfe 32 --json >"$runs/eval-$m-confidence.txt" 2>&1
  ) &
done
wait

# 4. the table; the run folders keep config, manifest and metrics (their checkpoints stay here)
node -e '
  const fs = require("fs");
  const [runs, ...models] = process.argv.slice(1);
  const rate = (f) => {
    try {
      const j = JSON.parse(fs.readFileSync(f, "utf8").trim().split("\n").at(-1));
      return (100 * j.solve_rate).toFixed(2);
    } catch { return "failed"; }
  };
  console.log("| model | steps | takeoff | held-out board accuracy during training (every tenth) | model alone, adaptive 64 NFE (%) | model alone, confidence 32 NFE (%) |");
  console.log("|---|---|---|---|---|---|");
  for (const m of models) {
    const rows = fs.readFileSync(`${runs}/run-${m}/metrics.csv`, "utf8").trim().split("\n");
    const head = rows[0].split(",");
    const ev = rows.slice(1).map((r) => r.split(",")).filter((r) => r[head.indexOf("board_accuracy")] !== "");
    const acc = ev.map((r) => `${r[0]}: ${(100 * Number(r[head.indexOf("board_accuracy")])).toFixed(1)}`);
    const t = ev.find((r) => Number(r[head.indexOf("board_accuracy")]) > 0);
    console.log(`| ${m} | ${rows.at(-1).split(",")[0]} | ${t ? t[0] : "none"} | ${acc.join(", ")} | ${rate(`${runs}/eval-${m}-adaptive.txt`)} | ${rate(`${runs}/eval-${m}-confidence.txt`)} |`);
  }' "$runs" "${models[@]}" | tee "$out/table.md"
# at most 8 files come back from a device: the runs without their checkpoints in one archive
for m in "${models[@]}"; do rm -rf "$runs/run-$m/checkpoint"; done
tar -C "$out" -cJf "$out/sudoku-paper.tar.xz" sudoku-paper && rm -rf "$runs"
say "done in $(($(date +%s) - t0)) s"
