// Image training configs (app:cifar10-imagenet, docs/design.md §5): the ADM U-Net by size — the
// paper's (feature dimension 96, channel multipliers [3, 4, 4], 4 residual blocks a level,
// attention at downsampling factors [2, 4], dropout 0.1; AdamW 1e-4 after a 1,000-step warm-up,
// constant, no weight decay, batch 512, EMA 0.9999, 200,000 steps), cpu (this machine: 32
// features, [1, 2, 2], 1 block a level, attention at the lowest level) and tiny (tests) — with
// learned anchors E(v) in R^8, normalised to norm sqrt(8) (models trained before anchors were learned keep
// the fixed value embedding F = 4 their configs name); and the process by the shared vocabulary
// (process/choice.ts): sjd with the pixel-grid blur (sigma_B = 2.5, the paper's best) by
// default, hybrid (CADD, W = I), masked (MDLM/MD4). docs/images.md lists what still differs
// from the paper's table.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ConfigOptions,
  MODEL_FILES,
  type ProcessDefaults,
  presetConfig,
  type Size,
  type TrainConfig,
  type UNetChoice,
} from '../../train/index.js';
import { type ImageGeometry, imageBlendShape } from './tokens.js';

/** A size of the SJD U-Net (the pixel-space processes drop its anchors: preset-config.ts). */
export type ImageSize = Size & {
  model: UNetChoice & Required<Pick<UNetChoice, 'anchorDim' | 'anchors'>>;
};

// Anchors learned and normalised as CDCD (the paper's CIFAR-10 setting); a blurred value is
// embedded between the anchors of its two neighbouring levels (process/value-embedding.ts).
const anchors = { arch: 'unet' as const, anchorDim: 8, anchors: 'learned' as const };
const loop = { weightDecay: 0, clip: 1, timeSampling: 'antithetic' as const };

export const IMAGE_SIZES: Record<string, ImageSize> = {
  paper: {
    model: {
      size: 'paper',
      ...anchors,
      base: 96,
      mults: [3, 4, 4],
      blocks: 4,
      heads: 4,
      attention: [2, 4],
      dropout: 0.1,
    },
    batch: 512,
    steps: 200_000,
    lr: { kind: 'constant', lr: 1e-4, warmup: 1000, total: 200_000 },
    ema: 0.9999,
    ...loop,
    logEvery: 100,
    evalEvery: 10_000,
    checkpointEvery: 1000,
  },
  cpu: {
    model: { size: 'cpu', ...anchors, base: 32, mults: [1, 2, 2], blocks: 1, heads: 4 },
    batch: 64,
    steps: 6000,
    lr: { kind: 'cosine', lr: 1e-3, warmup: 200, total: 6000, minLr: 1e-4 },
    ema: 0.999,
    ...loop,
    logEvery: 25,
    evalEvery: 500,
    checkpointEvery: 100,
  },
  tiny: {
    model: { size: 'tiny', ...anchors, base: 8, mults: [1, 2], blocks: 1, heads: 2 },
    batch: 8,
    steps: 20,
    lr: { kind: 'constant', lr: 1e-3, warmup: 5, total: 20 },
    ema: 0.9,
    ...loop,
    logEvery: 5,
    evalEvery: 10,
    checkpointEvery: 10,
  },
};

/**
 * The task's process defaults: the value-space blur of the pixel grid, sigma_B = 2.5; the
 * pixel-space baselines (ddpm, bitdiff) train too.
 */
export const IMAGE_PROCESS: ProcessDefaults = {
  process: 'sjd',
  blend: 'blur2d',
  bandwidth: 2.5,
  schedule: 'linear',
  mean: 'value',
  pixel: true,
};

export function imageConfig(g: ImageGeometry, o: ConfigOptions = {}): TrainConfig {
  const task = { name: 'image', label: 'image', sizes: IMAGE_SIZES, defaults: IMAGE_PROCESS };
  return { ...presetConfig(task, () => imageBlendShape(g), o), image: g };
}

/** Where `sjd sample image` writes its grid unless --out says otherwise (in the current folder). */
export const SAMPLE_GRID_FILE = 'sjd-samples.png';

/** The shipped image model (an exported model folder), when it has been shipped. */
export const SHIPPED_IMAGE = new URL('../../../../models/image', import.meta.url).pathname;

export const hasShippedImageModel = (): boolean =>
  existsSync(join(SHIPPED_IMAGE, MODEL_FILES.config));
