// The image task as the commands and `sjd serve` see it (common/task-spec.ts): how it is served
// (serving.ts: its models' shape from the geometry their config carries, the sampling defaults,
// sampling as the API answers it), the shipped model, a training run from `sjd train image`'s
// flags (flags.ts); its comparison is the lab's (lab/image/compare-entry.ts).
import { describeProcess } from '../../process/index.js';
import type { LoadedModel } from '../../train/model-io.js';
import { DEFAULT_HOLD_OUT } from '../common/hold-out.js';
import type { TaskSpec, TrainOptions } from '../common/task-spec.js';
import { IMAGE_TRAIN_DEFAULTS, IMAGE_TRAIN_FLAGS, type ImageTrainFlags } from './flags.js';
import { loadImageModel } from './load.js';
import { IMAGE_PROCESS, IMAGE_SIZES, imageConfig } from './presets.js';
import { imageServing } from './serving.js';
import {
  checkGeometry,
  firstImages,
  holdOutImages,
  imagesOrFashion,
  type Sourced,
} from './source.js';
import { ImageTask } from './task.js';
import { describeGeometry, geometryOf, type ImageGeometry } from './tokens.js';

/**
 * The share of --data a new run holds out: --hold-out, else the default where the user's own
 * images train and no --eval-data is given; none beside --eval-data, which refuses --hold-out.
 */
function heldOutShare(o: ImageTrainFlags): string | undefined {
  if (o.evalData !== undefined) {
    if (o.holdOut !== undefined)
      throw new Error('--hold-out and --eval-data both choose the held-out images; give one');
    return undefined;
  }
  return o.holdOut ?? (o.data !== undefined ? DEFAULT_HOLD_OUT : undefined);
}

/**
 * The training images (--data, else Fashion-MNIST train; the first --limit) and the held-out
 * ones: `holdOut` of the training set's images where given, else --eval-data, else Fashion-MNIST
 * test (the first `evalSize`).
 */
function trainAndHeld(
  o: ImageTrainFlags,
  levels: number | undefined,
  evalSize: number,
  holdOut: string | undefined,
): { train: Sourced; held: Sourced } {
  if (holdOut === undefined) {
    const train = imagesOrFashion(o.data, 'train', { levels, limit: o.limit });
    const held = imagesOrFashion(o.evalData, 'test', {
      levels: o.evalData === undefined ? train.set.levels : undefined,
      limit: evalSize,
    });
    const [a, b] = [train.set, held.set].map((s) => describeGeometry(geometryOf(s)));
    if (a !== b)
      throw new Error(
        `--eval-data ${o.evalData}: images are ${b}, the training images ${a}; give held-out images of the training images' size, or --hold-out N|FRACTION to hold out part of the training images instead`,
      );
    return { train, held };
  }
  const all = imagesOrFashion(o.data, 'train', { levels });
  const split = holdOutImages(all.set, holdOut, all.source);
  return {
    train: { set: firstImages(split.train, o.limit), source: all.source },
    held: {
      set: firstImages(split.held, evalSize),
      source: `${all.source} (--hold-out ${holdOut}, not trained on)`,
    },
  };
}

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
      const holdOut = saved ? saved.holdOut : heldOutShare(o);
      const { train, held } = trainAndHeld(o, lv, evalSize, holdOut);
      // a new run records its --data (config.data) and the share held out of it, which
      // --resume reuses (cli/resume.ts)
      const config = saved ?? {
        ...imageConfig(geometryOf(train.set), o),
        ...(o.data !== undefined && { data: o.data }),
        ...(holdOut !== undefined && { holdOut }),
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
