// The text task's own flags (common/task-spec.ts TaskFlag), which its spec declares: those of
// `sjd train text` (the corpus, the evaluation during training, hazard weights and the loss,
// app:e2e-hazard) and of `sjd compare text` (the samplers and budgets of the frontiers, fig:text8;
// or, with --hazards, the hazard tables of app:e2e-hazard; with --infill, the infilling
// benchmark).
import { parseHazardWeights } from '../../process/index.js';
import { integerIn, nfeValue, oneOf, seedList } from '../../util/flag-values.js';
import { gaussianSamplers, nfesFlag } from '../common/flag-values.js';
import type { TaskFlag } from '../common/task-spec.js';
import { FRONTIER_NFES } from './compare/frontier.js';
import { HAZARD_ARMS, parseArms } from './compare/hazard-arms.js';
import { EMBEDDED } from './corpus.js';
import { HOLE_SHAPES, parseHoleShapes } from './infill.js';
import { TEXT_SAMPLING } from './sample.js';

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

/** `sjd compare text`'s own flags. */
export interface TextCompareFlags {
  samplers: string[]; // of the hybrid and sjd models, the first in the verdicts
  n: number; // samples per frontier point
  nfes: string[]; // the frontiers' NFE budgets
  data?: string;
  hazards?: string[]; // the hazard tables' arms instead of the models (compare/hazards.ts)
  infill?: true | string[]; // the infilling benchmark's shapes instead of the frontiers
  infillNfe?: number;
  learnedSeeds?: string[];
}

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

/** `sjd compare text`'s own flags (--infill-nfe's default: the sampling default's now). */
export const textCompareFlags = (): TaskFlag[] => [
  {
    flags: '--samplers <list>',
    description:
      'samplers of the hybrid and sjd models, the first one in the verdicts (masked models: mdlm)',
    parse: gaussianSamplers,
    default: ['ancestral', 'sjd'],
  },
  {
    flags: '-n, --n <n>',
    description: 'samples per frontier point',
    parse: integerIn(1, 100_000),
    default: 64,
  },
  nfesFlag(
    "the frontiers' NFE budgets (the verdicts at the largest; a frontier cached at more serves fewer)",
    FRONTIER_NFES,
  ),
  {
    flags: '--data <dir>',
    description: `corpus folder from \`sjd data text8\` (default: ${EMBEDDED})`,
  },
  {
    flags: '--hazards <arms>',
    description: `instead of --models: the hazard tables of app:e2e-hazard, arms ${Object.keys(HAZARD_ARMS).join(', ')} or all (under the first of --samplers; report default docs/reports/text/hazards.md)`,
    parse: parseArms,
  },
  {
    flags: '--infill [shapes]',
    description: `instead of the frontiers: the models on the infilling benchmark, -n windows a shape (${HOLE_SHAPES.join(', ')}; default all; report default docs/reports/text/infilling.md)`,
    parse: parseHoleShapes,
  },
  {
    flags: '--infill-nfe <n>',
    description: `with --infill: the NFE of the fills (default ${TEXT_SAMPLING.nfe()})`,
    parse: integerIn(1, 100_000),
  },
  {
    flags: '--learned-seeds <list>',
    description:
      'with --hazards: seeds of the learned-hazard and ELBO arms (default 0: the paper reports one)',
    parse: seedList,
  },
];
