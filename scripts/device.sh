#!/usr/bin/env bash
# Issue 17: everything sjd does on an NVIDIA GPU, in one go, printing its figures as it goes.
# On a machine with PyTorch (CUDA), a C++ compiler, and this repository with the `.device` and
# `dist` folders of scripts/device-pack.sh (no Node, no network needed):
#   1. unpacks the carried Node and node_modules;
#   2. builds the addon against the local PyTorch's libtorch (LIBTORCH_USE_PYTORCH=1;
#      if c10d/Gloo or the fused AdamW path does not compile there, again without them);
#   3. benchmarks the training step of the paper-size Sudoku model and of the text DiT against
#      the same models in that PyTorch on the same device (sjd ms, PyTorch ms, ratio);
#   4. runs the tensor, gradcheck, optimiser and process/sampler oracle suites on the device,
#      beside step 5 (the timings are done by then);
#   5. trains the Sudoku model of the paper's size (peer attention, full augmentation, 2 loops)
#      for the time left, exports it, evaluates it on the first 2,000 test puzzles;
# and writes logs, figures and the model to OUT.
# Usage: bash scripts/device.sh OUT [SECONDS]   (SECONDS: total budget, default 480)
# Environment: SJD_PYTHON (default python3), DEVICE (default cuda; cpu rehearses it anywhere),
# ONLY=build (unpack Node and build the addon, nothing else) or ONLY=tests (build and run the
# suites, nothing else); TASK=text runs scripts/device-text.sh (issue 31's text models at the
# paper's size) after the build instead of steps 3 to 5; TASK=compare runs scripts/device-compare.sh
# (a comparison's runs on the GPU, returned to finish here); TASK=sudoku-paper runs
# scripts/device-sudoku-paper.sh (SJD, MDM and CADD as the paper's plain transformer at its size).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: bash scripts/device.sh OUT [SECONDS]}
budget=${2:-480}
device=${DEVICE:-cuda}
py=${SJD_PYTHON:-python3}
t0=$(date +%s)
mkdir -p "$out"
exec > >(tee -a "$out/device-log.txt") 2>&1
left() { echo $((budget - ($(date +%s) - t0))); }
say() { echo "[device.sh $(($(date +%s) - t0)) s] $*"; }
die() {
  say "FAILED: $*"
  exit 1
}
[ -d .device ] || die "no .device folder: run scripts/device-pack.sh first and carry .device and dist"
[ -d dist/src ] || die "no dist folder: carry dist (npx tsc -p tsconfig.json)"

# 1. Node and modules
if [ ! -x .device/bin/node ]; then
  mkdir -p .device/bin
  xz -dc .device/node.xz >.device/bin/node.tmp && chmod +x .device/bin/node.tmp && mv .device/bin/node.tmp .device/bin/node
fi
export PATH="$PWD/.device/bin:$PATH"
[ -d node_modules/commander ] || xz -dc .device/node_modules.tar.xz | tar -xf -
say "node $(node --version); $(nproc) cores"

# 2. the addon against the local libtorch
# the local PyTorch's libtorch where it has headers (find-libtorch.mjs's LIBTORCH_USE_PYTORCH),
# else the system's
export SJD_PYTHON=$py
if LIBTORCH_USE_PYTORCH=1 node native/find-libtorch.mjs include >/dev/null 2>&1; then export LIBTORCH_USE_PYTORCH=1; fi
say "PyTorch: $("$py" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU")' 2>&1 | tail -1); $(node native/find-libtorch.mjs describe)"
build() {
  local fl inc defs cxx libdir objs=() pids=()
  fl() { node native/find-libtorch.mjs "$1"; }
  inc="-I.device/node-include -I$(node -p "require('node-addon-api').include_dir")"
  for i in $(fl include); do inc="$inc -I$i"; done
  defs="-DNAPI_VERSION=8 -DNAPI_CPP_EXCEPTIONS -DNODE_ADDON_API_DISABLE_DEPRECATED"
  for d in $(fl defines); do defs="$defs -D$d"; done
  cxx="$(fl cxxflags) -fPIC -O2 -fexceptions -frtti -Wno-deprecated-declarations -Wno-unused-parameter"
  libdir=$(fl libdir)
  mkdir -p build/obj build/Release
  for f in native/*.cc; do
    objs+=("build/obj/$(basename "$f" .cc).o")
    # shellcheck disable=SC2086
    g++ $cxx $defs $inc -c "$f" -o "build/obj/$(basename "$f" .cc).o" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done # (a bare wait would also wait for the log's tee)
  for o in "${objs[@]}"; do [ -f "$o" ] || return 1; done
  # shellcheck disable=SC2046
  g++ -shared -o build/Release/sjd_torch.node "${objs[@]}" -L"$libdir" -Wl,-rpath,"$libdir" $(fl libs)
}
rm -rf build/obj build/Release/sjd_torch.node
if ! build 2>"$out/build-errors.txt"; then
  say "build with c10d/Gloo and fused AdamW failed ($(grep -m1 error "$out/build-errors.txt")); again without"
  rm -rf build/obj
  SJD_DISTRIBUTED=0 SJD_FUSED_ADAMW=0 build 2>>"$out/build-errors.txt" || die "addon build: $(grep -m3 error "$out/build-errors.txt")"
fi
node native/find-libtorch.mjs json >build/libtorch.json # what `sjd info` reports
say "addon built"
node bin/sjd.js --device "$device" info | head -1 || die "the addon does not load on $device"
[ "${ONLY:-}" = build ] && exit 0
# issue 31: the text comparison's models at the paper's size instead of the Sudoku run
if [ "${TASK:-sudoku}" = text ]; then
  DEVICE=$device bash scripts/device-text.sh "$out" "$(left)"
  exit $?
fi

# tab:sudoku_schedule_ablations at the paper's size, SJD, MDM and CADD side by side
if [ "${TASK:-sudoku}" = sudoku-paper ]; then
  DEVICE=$device bash scripts/device-sudoku-paper.sh "$out" "$(left)"
  exit $?
fi

# resumable comparisons' runs worked on the device (scripts/device-compare.sh: CMP_1, CMP_2, ...)
if [ "${TASK:-sudoku}" = compare ]; then
  DEVICE=$device bash scripts/device-compare.sh "$out" "$(left)"
  exit $?
fi

# the suites that run on the device (tensor ops, gradcheck, optimiser, process and sampler oracles)
suites=(tensor nn gradcheck optim random numerics process-forward process-reverse sampler-oracle sjd-loss)
files=()
for s in "${suites[@]}"; do files+=("dist/test/$s.test.js"); done
run_tests() { SJD_DEVICE=$device timeout 240 node --test --test-concurrency=1 --test-reporter=tap "${files[@]}" >"$out/tests-$device.tap" 2>&1; }
report_tests() {
  # the tap reporter lists each test (and each file that fails outside a test) at the top level
  say "tests on $device: $(grep -cE '^ok ' "$out/tests-$device.tap") passed, $(grep -cE '^not ok ' "$out/tests-$device.tap") failed ($(grep -E '^# (tests|pass|fail) ' "$out/tests-$device.tap" | tr '\n' ' '))"
  grep -E '^not ok ' "$out/tests-$device.tap" | head -20
}
if [ "${ONLY:-}" = tests ]; then
  run_tests
  report_tests
  exit 0
fi

# 3. training step against PyTorch on the same device, alone on it
say "bench on $device (reference: $py)"
SJD_PYTHON=$py timeout 150 node dist/bench/run.js --device "$device" --only train-step-sudoku --only text-train-step --json >"$out/bench-$device.jsonl"
node -e '
  for (const l of require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n")) {
    const r = JSON.parse(l);
    console.log(`${r.bench}: sjd ${r.sjd_ms.toFixed(2)} ms, PyTorch ${r.ref_ms.toFixed(2)} ms, ratio ${r.ratio.toFixed(3)}`);
  }' "$out/bench-$device.jsonl" || say "bench gave no figures"

# 4. the suites on the device, in the background beside the training (they need no timing)
say "tests on $device (beside the training): ${suites[*]}"
run_tests &
tests=$!

# 5. the Sudoku model of the paper's size for the time left (100 s kept for eval and export),
# with a short-run schedule (AdamW 1e-3, 300-step warm-up, cosine over the steps that fit)
train_s=$(($(left) - 100))
[ "$train_s" -ge 30 ] || die "no time left to train ($(left) s)"
step_ms=$(node -e 'const r=require("fs").readFileSync(process.argv[1],"utf8").trim().split("\n").map(JSON.parse).find(x=>x.bench==="train-step-sudoku");console.log(r?r.sjd_ms:50)' "$out/bench-$device.jsonl" 2>/dev/null || echo 50)
# 2 loops double the network's cost; corruption, data, EMA, evaluations and the tests beside
# it add about a third; 10% kept in hand so the cosine ends before the clock does
steps=$(node -e "console.log(Math.max(50, Math.floor(0.9 * $train_s * 1000 / ($step_ms * 2.7))))")
data=$(mktemp -d)
xz -dc .device/sudoku-train.csv.xz >"$data/train.csv"
xz -dc .device/sudoku-test.csv.xz >"$data/test.csv"
run="$data/run"
say "training $steps steps (~$train_s s) of the paper-size model on $device"
timeout -s INT "$train_s" node bin/sjd.js --device "$device" train sudoku --size paper --attention peers --augment full --loops 2 --precision float32 \
  --steps "$steps" --lr 1e-3 --warmup 300 --eval-every $((steps / 4 > 0 ? steps / 4 : 1)) --eval-size 200 --eval-nfe 64 --eval-sampler adaptive \
  --data "$data/train.csv" --eval-data "$data/test.csv" --out "$run" 2>&1 | tr '\r' '\n' | grep -v '|' | tee "$out/train-log.txt"
cp "$run/metrics.csv" "$run/config.json" "$run/manifest.json" "$out/" 2>/dev/null
node bin/sjd.js export --run "$run" --out "$out/model" && say "model in $out/model"
wait "$tests"
report_tests
say "eval on the first 2,000 test puzzles (adaptive sampler)"
timeout $(($(left) > 20 ? $(left) - 10 : 10)) node bin/sjd.js --device "$device" eval sudoku --model "$run" --data "$data/test.csv" --limit 2000 --json | tee "$out/eval-2000.txt"
rm -rf "$data"
say "done in $(($(date +%s) - t0)) s"
