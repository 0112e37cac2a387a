// The text task as the commands and `sjd serve` see it (common/task-spec.ts): how it is served
// (serving.ts: its models' shape, vocabulary and sampling defaults, sampling as the API answers
// it), the shipped model, a training run from `sjd train text`'s flags (prepare.ts) and the
// comparison of `sjd compare text` (fig:text8).

import type { CompareOptions, TaskSpec } from '../common/task-spec.js';
import { runTextComparison, textReportFiles } from './compare/comparison.js';
import { FRONTIER_NFES } from './compare/frontier.js';
import { runHazardComparison } from './compare/hazards.js';
import { runInfillComparison } from './compare/infill.js';
import { TEXT_TRAIN_FLAGS, type TextCompareFlags, textCompareFlags } from './flags.js';
import { HOLE_SHAPES, type HoleShape } from './infill.js';
import { loadTextModel } from './load.js';
import { characterTask, prepareTextRun } from './prepare.js';
import { SIGMA_SWEEP, TEXT_PROCESS, TEXT_SIZES } from './presets.js';
import { TEXT_SAMPLING } from './sample.js';
import { type TextModel, textServing, withVocabulary } from './serving.js';

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

export const textSpec: TaskSpec<TextModel> = {
  ...textServing,
  load: (dir) => withVocabulary(loadTextModel(dir)),
  train: {
    description: 'train a text8-style character denoiser (default: sjd with the 1-D Gaussian W)',
    sizes: TEXT_SIZES,
    defaults: TEXT_PROCESS,
    flags: TEXT_TRAIN_FLAGS,
    prepare: prepareTextRun,
  },
  compare: {
    description:
      'masked (MDLM), hybrid (CADD) and sjd over the sigma_W sweep: train every model x seed (resumable), trace frontiers, write docs',
    models: {
      help: 'sjd-SIGMA (the default W, row-normalised), sjd-row-SIGMA (the same), sjd-add-SIGMA (W_ii = 1)',
      defaults: ['masked', 'hybrid', ...SIGMA_SWEEP.map((s) => `sjd-${s}`)],
    },
    seeds: ['0'],
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
      const o = { ...flags, nfes: flags.nfes.map(Number) };
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
        const learnedSeeds = (o.learnedSeeds ?? ['0']).map(Number);
        const r = { ...o, arms: o.hazards, sampler: o.samplers[0]!, doc, learnedSeeds };
        return (await runHazardComparison(task, r, hooks)) !== null;
      }
      return (await runTextComparison(task, o, hooks)) !== null;
    },
  },
};
