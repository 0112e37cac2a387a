#!/usr/bin/env bash
# Issue 31's image comparison, resumable (run it again to continue; one thread, so other work
# can run beside it), in the order of the issues: MDLM, CADD and SJD (sigma_B = 2) on seeds 0,
# 1 and 2, 2,400 steps each, N = 500 at NFE 32/64/128/256; SJD at sigma_B = 1.5 and 2.5 on
# seed 0 (the sigma_B sweep; one seed, as the budget allows); the continuous models scored again
# at top-p 0.9 (the masked model samples at MD4's 0.98); issue 31's further lever, MDLM and CADD
# at 4x the training (9,600 steps, seed 0); then DDPM and Bit Diffusion (issue 29) beside them
# on the three seeds, and the masked runs without top-p (the paper's MDLM row). Runs kept in
# training/image-compare-v2 and training/image-long (scripts/keep-results.sh) are copied in first,
# so they are not trained again. Several copies
# may run at once (one a core): they share the runs, each leaving the runs another holds to it
# (--no-wait), and whichever finishes a comparison's last run writes its whole report. Run it
# from a worktree of its own (git worktree add ../cmp2; npm ci there), so that later changes to
# this checkout do not reach a run mid-way.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p runs/image-compare-v2 runs/image-long
if [ -d training/image-compare-v2 ]; then bash scripts/restore-results.sh training/image-compare-v2 runs/image-compare-v2; fi
if [ -d training/image-long ]; then bash scripts/restore-results.sh training/image-long runs/image-long; fi
opts=(--threads "${THREADS:-1}" compare image --no-wait --size cpu -n 500 --nfes 32,64,128,256)
common=("${opts[@]}" --out runs/image-compare-v2 --steps 2400)
d=docs/reports/image
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-2 --doc "$d/levels-16.md"
node bin/sjd.js "${common[@]}" --seeds 0 --models masked,hybrid,sjd-1.5,sjd-2,sjd-2.5 --doc "$d/levels-16-sigma-b.md"
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-2 --top-p 0.9 --doc "$d/levels-16-top-p0.9.md"
node bin/sjd.js "${opts[@]}" --out runs/image-long --steps 9600 --seeds 0 --models masked,hybrid \
  --doc "$d/levels-16-long.md"
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-2,ddpm,bitdiff --doc "$d/levels-16.md"
# the paper's table has two masked rows: MD4 (top-p 0.98, the comparison's masked model above) and
# MDLM (no top-p): the same runs, sampled at top-p 1
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked --masked-top-p 1 --doc "$d/levels-16-mdlm.md"
