// Unconditional image generation as a training task (app:cifar10-imagenet): random training
// images as token sequences (tokens.ts), no clues, K levels a token; W the identity (CADD) or
// the row-stochastic Gaussian blur over the pixel grid applied to raw values and then embedded
// (SJD, eq:embed-the-blur), or the masked process (MDLM/MD4). No augmentation, as the paper.
// Evaluation: the held-out loss of the EMA model at fixed times and corruption.
import { createHash } from 'node:crypto';
import type { Network } from '../../model/network.js';
import type { BlendShape, SJDProcess } from '../../process/index.js';
import { keep, type Tensor, type TorchGenerator, tensor } from '../../torch/index.js';
import { heldOutLoss, heldOutLossOf, type LossFn, type TrainTask } from '../../train/index.js';
import type { ImageSet } from './dataset.js';
import {
  describeGeometry,
  geometryOf,
  type ImageGeometry,
  imageShape,
  tokensOf,
} from './tokens.js';

export interface ImageTaskOptions {
  evalSize: number; // held-out images for the evaluation loss
}

/** A hash of a set's tokens and geometry (the run's manifest names its data by it). */
export function hashImageSet(s: ImageSet): string {
  return createHash('sha256')
    .update(describeGeometry(geometryOf(s)))
    .update(s.images)
    .digest('hex');
}

export class ImageTask implements TrainTask {
  readonly name = 'image';
  readonly evalMetrics = ['valid_loss'];
  readonly dataHash: string;
  readonly geometry: ImageGeometry;
  readonly length: number;
  readonly classes: number;
  readonly blendShape: BlendShape;
  readonly #train: Tensor; // [N, L] uint8
  readonly #held: Tensor; // [evalSize, L] int64

  constructor(
    train: ImageSet,
    held: ImageSet,
    readonly opts: ImageTaskOptions,
  ) {
    this.geometry = geometryOf(train);
    const a = describeGeometry(this.geometry);
    const b = describeGeometry(geometryOf(held));
    if (a !== b) throw new Error(`image: training images are ${a}, held-out images ${b}`);
    if (train.n < 1) throw new Error('image: no training images');
    const shape = imageShape(this.geometry);
    this.length = shape.length;
    this.classes = shape.classes;
    this.blendShape = shape.blendShape!;
    const L = this.length;
    this.#train = keep(tensor(tokensOf(train), [train.n, L], 'uint8'));
    const m = Math.min(opts.evalSize, held.n);
    if (m < 1) throw new Error('image: no held-out images');
    const heldTokens = tokensOf(held).subarray(0, m * L);
    this.#held = keep(tensor(heldTokens, [m, L], 'uint8').to('int64'));
    this.dataHash = hashImageSet(train);
  }

  batch(size: number, gen: TorchGenerator): { x0: Tensor } {
    const idx = gen.randint(0, this.#train.size(0), [size]); // [B]
    return { x0: this.#train.indexSelect(0, idx).to('int64') }; // [B, L]
  }

  evaluate(model: Network, proc: SJDProcess): Record<string, number> {
    return { valid_loss: heldOutLoss(model, proc, this.#held) };
  }

  evaluateLoss(loss: LossFn, T: number): Record<string, number> {
    return { valid_loss: heldOutLossOf(loss, T, this.#held) };
  }
}
