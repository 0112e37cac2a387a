// The image task as the commands and `sjd serve` see it (common/task-spec.ts): how it is served
// (serving.ts: its models' shape from the geometry their config carries, the sampling defaults,
// sampling as the API answers it), the shipped model, a training run from `sjd train image`'s
// flags (flags.ts); its comparison is the lab's (lab/image/compare-entry.ts).
import { describeProcess } from '../../process/index.js';
import type { LoadedModel } from '../../train/model-io.js';
import type { TaskSpec, TrainOptions } from '../common/task-spec.js';
import { IMAGE_TRAIN_DEFAULTS, IMAGE_TRAIN_FLAGS, type ImageTrainFlags } from './flags.js';
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
};
