// The transformer's feed-forward block: Linear(d, hidden) -> GELU -> Linear(hidden, d) -> dropout.
import { dropout } from '../functional.js';
import { defaultGenerator, type TorchGenerator } from '../random.js';
import type { Tensor } from '../tensor.js';
import { Linear } from './linear.js';
import { Module } from './module.js';

export class MLP extends Module {
  readonly fc: Linear;
  readonly proj: Linear;
  readonly gen: TorchGenerator;

  constructor(
    dim: number,
    hidden: number,
    readonly dropoutP = 0,
    gen?: TorchGenerator,
  ) {
    super();
    this.gen = gen ?? defaultGenerator();
    this.fc = this.child('fc', new Linear(dim, hidden, { gen: this.gen }));
    this.proj = this.child('proj', new Linear(hidden, dim, { gen: this.gen }));
  }

  /** x [B, L, d] -> [B, L, d] */
  forward(x: Tensor): Tensor {
    const hidden = this.fc.forward(x).gelu(); // [B, L, hidden]
    return dropout(this.proj.forward(hidden), this.dropoutP, this.training, this.gen);
  }
}
