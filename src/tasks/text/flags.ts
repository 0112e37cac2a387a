// The text task's own flags (common/task-spec.ts TaskFlag), which its spec declares: those of
// `sjd train text` (the corpus, the evaluation during training, hazard weights and the loss,
// app:e2e-hazard).
import { parseHazardWeights } from '../../process/index.js';
import { integerIn, nfeValue, oneOf } from '../../util/flag-values.js';
import type { TaskFlag } from '../common/task-spec.js';

/** `sjd train text`'s own flags and their defaults. */
export interface TextTrainFlags {
  data?: string; // a corpus folder from `sjd data text` (default: the embedded corpus)
  length?: number; // the training window L in characters (default: the size's)
  evalSamples?: number;
  evalNfe?: number;
  hazardWeights?: string; // per-anchor hazard weights (uniform, freq:GAMMA, learned-*) from the corpus
  objective?: 'ce' | 'elbo'; // the classifier's loss (default: ce; learned weights: elbo)
}
export const TEXT_TRAIN_DEFAULTS = { evalSamples: 16, evalNfe: 32 };

/** A --hazard-weights spec, checked (process/hazard-weights.ts) and kept as written. */
function hazardWeights(value: string): string {
  parseHazardWeights(value);
  return value;
}

/** `sjd train text`'s own flags. */
export const TEXT_TRAIN_FLAGS: TaskFlag[] = [
  {
    flags: '--data <dir>',
    description: 'corpus folder from `sjd data text` (default: the embedded corpus)',
  },
  {
    flags: '--length <n>',
    description: "the training window L in characters (default: the size's)",
    parse: integerIn(2, 1 << 16),
  },
  {
    flags: '--eval-samples <n>',
    description: 'samples scored at each evaluation',
    parse: integerIn(1, 100_000),
    default: TEXT_TRAIN_DEFAULTS.evalSamples,
  },
  {
    flags: '--eval-nfe <n>',
    description: 'NFE of the evaluation samples',
    parse: nfeValue,
    default: TEXT_TRAIN_DEFAULTS.evalNfe,
  },
  {
    flags: '--hazard-weights <spec>',
    description:
      'hybrid, sjd: per-token hazard weights w(a), uniform (the default), freq:GAMMA (w proportional to corpus frequency^GAMMA, sum p0 w = 1; app:e2e-hazard), freq-spread:S or anti-spread:S (the GAMMA that spreads w by S, frequency-keyed or anti-frequency), learned-bounded or learned-uniform-ce (learned through the ELBO, tab:e2e-text8)',
    parse: hazardWeights,
  },
  {
    flags: '--objective <name>',
    description:
      'hybrid, sjd: the loss, ce (cross-entropy, the default) or elbo (the negative ELBO at eta = 1 without its score term, prop:elbo-eta1)',
    parse: oneOf(['ce', 'elbo']),
  },
];
