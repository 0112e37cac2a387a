// The image task as the commands and `sjd serve` see it (common/task-spec.ts): how it is served
// (serving.ts: its models' shape from the geometry their config carries, the sampling defaults,
// sampling as the API answers it), the shipped model, a training run from `sjd train image`'s
// flags (flags.ts) and the comparison of `sjd compare image` (tab:cifar10_fid at this machine's
// scale).
import { describeProcess } from '../../process/index.js';
import type { LoadedModel } from '../../train/model-io.js';
import type { CompareOptions, TaskSpec, TrainOptions } from '../common/task-spec.js';
import { imageReportFiles, runImageComparison } from './compare/comparison.js';
import { loadFeatureNet, SHIPPED_FEATURES } from './feature-train.js';
import {
  IMAGE_COMPARE_FLAGS,
  IMAGE_TRAIN_DEFAULTS,
  IMAGE_TRAIN_FLAGS,
  type ImageCompareFlags,
  type ImageTrainFlags,
} from './flags.js';
import { loadImageModel } from './load.js';
import { IMAGE_PROCESS, IMAGE_SIZES, imageConfig } from './presets.js';
import { imageServing } from './serving.js';
import { checkGeometry, imagesOrFashion } from './source.js';
import { ImageTask } from './task.js';
import { describeGeometry, geometryOf, type ImageGeometry } from './tokens.js';

export const imageSpec: TaskSpec<LoadedModel & { geometry: ImageGeometry }> = {
  ...imageServing,
  load: loadImageModel,
  train: {
    description:
      'train an image denoiser, a U-Net (default: sjd with the pixel-grid blur, sigma_B 2.5)',
    sizes: IMAGE_SIZES,
    defaults: IMAGE_PROCESS,
    flags: IMAGE_TRAIN_FLAGS,
    prepare: (o: TrainOptions & ImageTrainFlags, saved) => {
      const evalSize = o.evalSize ?? IMAGE_TRAIN_DEFAULTS.evalSize;
      const lv = o.levels ?? (o.data === undefined ? saved?.image?.levels : undefined);
      const train = imagesOrFashion(o.data, 'train', { levels: lv, limit: o.limit });
      const held = imagesOrFashion(o.evalData, 'test', {
        levels: o.evalData === undefined ? train.set.levels : undefined,
        limit: evalSize,
      });
      // a new run records its --data (config.data), which --resume reuses (cli/resume.ts)
      const config = saved ?? {
        ...imageConfig(geometryOf(train.set), o),
        ...(o.data !== undefined && { data: o.data }),
      };
      if (!config.image)
        throw new Error(`${o.out}: not an image run (no image geometry in its config)`);
      checkGeometry(train.set, config.image, train.source);
      const task = new ImageTask(train.set, held.set, { evalSize });
      const about = `${train.set.n} training images from ${train.source} (${describeGeometry(config.image)}); evaluating on ${held.set.n} from ${held.source}; ${describeProcess(config.process)}`;
      return { config, task, about };
    },
  },
  compare: {
    description:
      'masked (MDLM), hybrid (CADD) and sjd over sigma_B on one U-Net: train every model x seed (resumable), score FD/KID at each NFE, write docs',
    models: {
      help: 'sjd-SIGMA (the blur of values at sigma_B SIGMA), ddpm, bitdiff (the pixel-space DDPM and Bit Diffusion)',
      defaults: ['masked', 'hybrid', 'sjd-1.5', 'sjd-2', 'sjd-2.5'],
    },
    seeds: ['0'],
    doc: 'docs/reports/image/comparison.md',
    flags: IMAGE_COMPARE_FLAGS,
    outputs: (o) => {
      const f = imageReportFiles(o.doc, o.models);
      return { report: f.report, beside: [f.svg, ...f.grids] };
    },
    run: async (o: CompareOptions & ImageCompareFlags, hooks) => {
      const { net, config: fc } = loadFeatureNet(o.features);
      const train = imagesOrFashion(undefined, 'train', { levels: o.levels, limit: o.limit });
      const test = imagesOrFashion(undefined, 'test', { levels: o.levels });
      const task = new ImageTask(train.set, test.set, { evalSize: o.evalSize });
      const path = o.features === SHIPPED_FEATURES ? 'models/fashion-features' : o.features;
      const runs = await runImageComparison(
        task,
        {
          ...o,
          nfes: o.nfes.map(Number),
          features: { net, path, accuracy: fc.testAccuracy },
          train: train.set,
          test: test.set,
        },
        hooks,
      );
      return runs !== null;
    },
  },
};
