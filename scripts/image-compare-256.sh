#!/usr/bin/env bash
# The image comparison at the paper's 256 levels, resumable (run it again to continue; one thread,
# so other work can run beside it), with the 16-level comparison's budget (2,400 steps, `cpu`
# U-Net, N = 500 at NFE 32/64/128/256) so that the two level counts compare directly. In order
# of priority: MD4 (masked, top-p 0.98), CADD and SJD at sigma_B = 2.5 (the paper's best) on
# seeds 0, 1 and 2; DDPM on the three seeds and SJD at sigma_B = 1.5 on seed 0 (the sigma_B
# order); then Bit Diffusion, the masked runs sampled without top-p (the paper's MDLM row) and
# SJD at sigma_B = 2 on seed 0. Runs kept in training/image-compare-256 (scripts/keep-results.sh)
# are copied in first, so they are not trained again. Run it from a worktree of its own
# (git worktree add ../cmp3; npm ci there), so that later changes to this checkout do not reach a
# run mid-way; several copies may run at once (one a core, --no-wait).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=runs/image-compare-256
mkdir -p "$runs"
if [ -d training/image-compare-256 ]; then bash scripts/restore-results.sh training/image-compare-256 "$runs"; fi
opts=(--threads "${THREADS:-1}" compare image --no-wait --size cpu -n 500 --nfes 32,64,128,256 --levels 256)
common=("${opts[@]}" --out "$runs" --steps 2400)
d=docs/reports/image
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-2.5 --doc "$d/levels-256.md"
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-2.5,ddpm --doc "$d/levels-256.md"
node bin/sjd.js "${common[@]}" --seeds 0 --models masked,hybrid,sjd-1.5,sjd-2.5,ddpm --doc "$d/levels-256-sigma-b.md"
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-2.5,ddpm,bitdiff --doc "$d/levels-256.md"
# the paper's table has two masked rows: MD4 (top-p 0.98, the masked model above) and MDLM (no
# top-p): the same runs, sampled at top-p 1
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked --masked-top-p 1 --doc "$d/levels-256-mdlm.md"
node bin/sjd.js "${common[@]}" --seeds 0 --models masked,hybrid,sjd-1.5,sjd-2,sjd-2.5,ddpm --doc "$d/levels-256-sigma-b.md"
