// The text task as the commands and `sjd serve` see it (issue #28; task-spec.ts): its saved
// models' shape, the shipped model and its alphabet, the sampling defaults (app:text8: MDLM's
// ancestral step for the masked preset, else Alg. 2; NFE 64, temperature 0.7), a training run
// from `sjd train text`'s flags, and unconditional sampling as the API answers it.

import { describeProcess } from '../../process/index.js';
import { defaultSampler } from '../../sampling/index.js';
import type { TaskSpec, TrainOptions } from '../task-spec.js';
import { ALPHABET, EMBEDDED, loadCorpus } from './corpus.js';
import { loadTextModel } from './load.js';
import { TEXT_PROCESS, TEXT_SIZES, textConfig } from './presets.js';
import { sampleTextSteps } from './sample.js';
import { TextTask, textShape } from './task.js';

/** `sjd train text`'s own flags and their defaults. */
export interface TextTrainFlags {
  data?: string; // a corpus folder from `sjd data text8` (default: the embedded corpus)
  evalSamples?: number;
  evalNfe?: number;
}
export const TEXT_TRAIN_DEFAULTS = { evalSamples: 16, evalNfe: 32 };

export const textSpec: TaskSpec = {
  name: 'text',
  shape: textShape,
  load: (dir) => ({ ...loadTextModel(dir), alphabet: ALPHABET }),
  sampling: { sampler: defaultSampler, nfe: () => 64, temperature: 0.7 },
  train: {
    description: 'train a text8-style character denoiser (default: sjd with the 1-D Gaussian W)',
    sizes: TEXT_SIZES,
    defaults: TEXT_PROCESS,
    prepare: (o: TrainOptions & TextTrainFlags, saved) => {
      const config = saved ?? { ...textConfig(o), data: o.data ?? EMBEDDED };
      const corpus = loadCorpus(o.data ?? config.data);
      const task = new TextTask(corpus, {
        length: config.length ?? 0,
        evalWindows: 64,
        evalSamples: o.evalSamples ?? TEXT_TRAIN_DEFAULTS.evalSamples,
        evalNfe: o.evalNfe ?? TEXT_TRAIN_DEFAULTS.evalNfe,
        evalTemperature: 1,
      });
      const about = `${corpus.train.length} training characters from ${corpus.source}; ${describeProcess(config.process)}`;
      return { config, task, about };
    },
  },
  *sampleSteps(m, s) {
    const r = yield* sampleTextSteps(m.model, m.process, s);
    return { answer: { texts: r.texts }, nfe: r.nfe };
  },
};
