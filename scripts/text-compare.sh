#!/usr/bin/env bash
# Issue 31's text comparison, resumable (run it again to continue; one thread, so other work
# can run beside it): two seeds of MDLM, CADD and the row-normalised SJD under the exact sampler;
# the seed-0 sweep of the sigma_W and normalisation choices under the exact sampler and Alg. 2
# (the runs of seed 0 are shared); the third seed of the three; then the infilling comparison on
# the three seeds' models (issue 30), MDLM and CADD on seed 0 in bfloat16 at 3,000 and 12,000
# steps (a further lever for issue 31's text target), and the hazard tables (issue 29: every arm on seed 0 first,
# then the frozen arms on seeds 1 and 2; the learned ones on seed 0 only), their frontiers at
# NFE 64 alone (a third of the sampling of three budgets; the uniform arm's is the comparison's
# CADD frontier, read at NFE 64), since 15 models at the comparison's cost would take about 30
# CPU-hours. Runs kept in training/text-compare-v2 (scripts/keep-results.sh) are copied in first,
# so they are not trained again. Needs the corpus in runs/text8:
#   npx sjd data text8 --from ../shared/data/wikipedia --out runs/text8
# Several copies may run at once (one a core): they share the runs, each leaving the runs
# another holds to it (--no-wait), and whichever finishes a comparison's last run writes its
# whole report. Run it from a worktree of its own (git worktree add ../cmp; npm ci there), so
# that later changes to this checkout do not reach a run mid-way.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p runs/text-compare-v2
bash scripts/restore-results.sh training/text-compare-v2 runs/text-compare-v2
d=docs/reports/text
common=(--threads "${THREADS:-1}" compare text --no-wait --out runs/text-compare-v2 --steps 3000 --size cpu -n 64 --data runs/text8)
# two seeds first, then the sweep (its two new models settle the sigma_W and normalisation
# questions), then the third seed
node bin/sjd.js "${common[@]}" --seeds 0,1 --models masked,hybrid,sjd-row-1 \
  --samplers ancestral --doc "$d/comparison.md"
node bin/sjd.js "${common[@]}" --seeds 0 --models masked,hybrid,sjd-row-1,sjd-add-1,sjd-row-2,sjd-row-1.5 \
  --samplers ancestral,sjd --doc "$d/sweep.md"
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-row-1 \
  --samplers ancestral --doc "$d/comparison.md"
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --models masked,hybrid,sjd-row-1 \
  --samplers ancestral --infill --doc "$d/infilling.md"
# issue 31's further lever (its text target missed at 3,000 steps): 4x the training of MDLM and
# CADD on seed 0, in bfloat16 (--precision, the paper's setting; 2.6x faster a step here at one
# thread), with the pair at 3,000 steps in bfloat16 first: it checks bfloat16 against the float32
# comparison above and gives the lever a baseline at the same precision (constant learning rate,
# so a long run's first 3,000 steps are the short one's)
for pair in "text-bf16 3000 $d/bf16.md" "text-long-bf16 12000 $d/long-bf16.md"; do
  read -r folder steps doc <<< "$pair"
  mkdir -p "runs/$folder"
  if [ -d "training/$folder" ]; then bash scripts/restore-results.sh "training/$folder" "runs/$folder"; fi
  node bin/sjd.js --threads "${THREADS:-1}" compare text --no-wait --out "runs/$folder" --steps "$steps" \
    --size cpu -n 64 --data runs/text8 --seeds 0 --models masked,hybrid --samplers ancestral \
    --precision bfloat16 --doc "$doc"
done
# every arm on seed 0 first (a whole table sooner: 7 models to train), then seeds 1, 2
node bin/sjd.js "${common[@]}" --seeds 0 --samplers ancestral --nfes 64 --hazards all \
  --learned-seeds 0 --doc "$d/hazards.md"
node bin/sjd.js "${common[@]}" --seeds 0,1,2 --samplers ancestral --nfes 64 --hazards all \
  --learned-seeds 0 --doc "$d/hazards.md"
