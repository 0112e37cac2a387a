// Embedding table: int64 indices [...] -> vectors [..., d], initialised Normal(0, std).
import { embedding } from '../functional.js';
import { defaultGenerator, type TorchGenerator } from '../random.js';
import { tidy } from '../scope.js';
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

export class Embedding extends Module {
  readonly weight: Tensor; // [K, d]

  constructor(
    readonly num: number,
    readonly dim: number,
    opts: { gen?: TorchGenerator; std?: number } = {},
  ) {
    super();
    const gen = opts.gen ?? defaultGenerator();
    this.weight = this.param(
      'weight',
      tidy(() => gen.randn([num, dim]).mul(opts.std ?? 1)),
    );
  }

  /** indices [...] (int64) -> [..., d] */
  forward(indices: Tensor): Tensor {
    return embedding(this.weight, indices);
  }
}
