// `sjd compare text`: its own flags and the entry the command builds. The frontiers of fig:text8
// (every model x seed trained, resumable, each traced at the NFE budgets), or with --hazards the
// hazard tables of app:e2e-hazard (hazards.ts), or with --infill the infilling benchmark
// (infill.ts); each writes its report, by default one of its own.

import type { SamplerName } from '../../sampling/index.js';
import { gaussianSamplers, nfesFlag } from '../../tasks/common/flag-values.js';
import type { CompareEntry, CompareOptions, TaskFlag } from '../../tasks/common/task-spec.js';
import { EMBEDDED } from '../../tasks/text/corpus.js';
import { FRONTIER_NFES } from '../../tasks/text/frontier.js';
import { HOLE_SHAPES, type HoleShape, parseHoleShapes } from '../../tasks/text/infill.js';
import { characterTask } from '../../tasks/text/prepare.js';
import { SIGMA_SWEEP, TEXT_SIZES } from '../../tasks/text/presets.js';
import { TEXT_SAMPLING } from '../../tasks/text/sample.js';
import { integerIn, seedList } from '../../util/flag-values.js';
import { runTextComparison, textReportFiles } from './comparison.js';
import { HAZARD_ARMS, parseArms } from './hazard-arms.js';
import { runHazardComparison } from './hazards.js';
import { runInfillComparison } from './infill.js';

const TEXT_COMPARISON_DOC = 'docs/reports/text/comparison.md';
const TEXT_HAZARDS_DOC = 'docs/reports/text/hazards.md';
const TEXT_INFILLING_DOC = 'docs/reports/text/infilling.md';

/** The report of the comparison the flags choose: --doc, else its own default. */
const textDoc = (o: { doc: string; infill?: unknown; hazards?: unknown }): string =>
  o.doc !== TEXT_COMPARISON_DOC
    ? o.doc
    : o.infill
      ? TEXT_INFILLING_DOC
      : o.hazards
        ? TEXT_HAZARDS_DOC
        : TEXT_COMPARISON_DOC;

/** `sjd compare text`'s own flags. */
export interface TextCompareFlags {
  samplers: SamplerName[]; // of the hybrid and sjd models, the first in the verdicts
  n: number; // samples per frontier point
  nfes: number[]; // the frontiers' NFE budgets
  data?: string;
  hazards?: string[]; // the hazard tables' arms instead of the models (hazards.ts)
  infill?: true | string[]; // the infilling benchmark's shapes instead of the frontiers
  infillNfe?: number;
  learnedSeeds?: number[];
}

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

export const textComparison: CompareEntry = {
  description:
    'masked (MDLM), hybrid (CADD) and sjd over the sigma_W sweep: train every model x seed (resumable), trace frontiers, write docs',
  models: {
    help: 'sjd-SIGMA (the default W, row-normalised), sjd-row-SIGMA (the same), sjd-add-SIGMA (W_ii = 1)',
    defaults: ['masked', 'hybrid', ...SIGMA_SWEEP.map((s) => `sjd-${s}`)],
  },
  seeds: [0],
  doc: TEXT_COMPARISON_DOC,
  // when the command is built: --infill-nfe's default is the sampling default then
  get flags() {
    return textCompareFlags();
  },
  // the hazard tables train their own arms: --models is not read
  unused: (flags) => (flags.hazards ? ['models'] : []),
  // the frontiers' report has its plot and their JSON beside it; the others, the report alone
  outputs: (o: CompareOptions & TextCompareFlags) => {
    const f = textReportFiles(textDoc(o));
    return { report: f.report, beside: o.infill || o.hazards ? [] : [f.svg, f.json] };
  },
  run: async (flags: CompareOptions & TextCompareFlags, hooks) => {
    const o = flags;
    if (o.infill && o.hazards)
      throw new Error('--infill and --hazards are two comparisons: one at a time');
    if (o.infill && o.nfes.join(',') !== FRONTIER_NFES.join(','))
      throw new Error("--nfes sets the frontiers' budgets; --infill fills at --infill-nfe");
    const task = characterTask(o.data, TEXT_SIZES[o.size]!.length);
    if (o.infill) {
      const doc = textDoc(o);
      const shapes = (o.infill === true ? [...HOLE_SHAPES] : o.infill) as HoleShape[];
      const r = {
        ...o,
        doc,
        shapes,
        windows: o.n,
        nfe: o.infillNfe ?? TEXT_SAMPLING.nfe(),
        sampler: o.samplers[0]!,
      };
      return (await runInfillComparison(task, r, hooks)) !== null;
    }
    if (o.hazards) {
      const doc = textDoc(o);
      const learnedSeeds = o.learnedSeeds ?? [0];
      const r = { ...o, arms: o.hazards, sampler: o.samplers[0]!, doc, learnedSeeds };
      return (await runHazardComparison(task, r, hooks)) !== null;
    }
    return (await runTextComparison(task, o, hooks)) !== null;
  },
};
