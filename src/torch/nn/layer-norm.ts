// Layer normalisation over the last dimension (libtorch's layer_norm), affine by default.
import { ones, zeros } from '../factories.js';
import { layerNorm } from '../functional.js';
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

export class LayerNorm extends Module {
  readonly weight: Tensor | null; // [d]
  readonly bias: Tensor | null; // [d]

  constructor(
    readonly dim: number,
    readonly eps = 1e-5,
    affine = true,
  ) {
    super();
    this.weight = affine ? this.param('weight', ones([dim])) : null;
    this.bias = affine ? this.param('bias', zeros([dim])) : null;
  }

  /** x [..., d] -> [..., d] */
  forward(x: Tensor): Tensor {
    return layerNorm(x, [this.dim], this.weight, this.bias, this.eps);
  }
}
