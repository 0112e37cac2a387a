// The text task as the commands and `sjd serve` see it (common/task-spec.ts): how it is served
// (serving.ts: its models' shape, vocabulary and sampling defaults, sampling as the API answers
// it), the shipped model, a training run from `sjd train text`'s flags (prepare.ts); its
// comparison is the lab's (lab/text/compare-entry.ts).

import type { TaskSpec } from '../common/task-spec.js';
import { TEXT_TRAIN_FLAGS } from './flags.js';
import { loadTextModel } from './load.js';
import { prepareTextRun } from './prepare.js';
import { TEXT_PROCESS, TEXT_SIZES } from './presets.js';
import { type TextModel, textServing, withVocabulary } from './serving.js';

export const textSpec: TaskSpec<TextModel> = {
  ...textServing,
  load: (dir, precision) => withVocabulary(loadTextModel(dir, { precision })),
  train: {
    description: 'train a text8-style character denoiser (default: sjd with the 1-D Gaussian W)',
    sizes: TEXT_SIZES,
    defaults: TEXT_PROCESS,
    flags: TEXT_TRAIN_FLAGS,
    prepare: prepareTextRun,
  },
};
