// Group normalisation over channels of [N, C, ...] (libtorch's group_norm), affine (weight 1,
// bias 0 at start), as in ADM's U-Net (32 groups, or fewer when C is small).
import { ones, zeros } from '../factories.js';
import { groupNorm } from '../functional.js';
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

export class GroupNorm extends Module {
  readonly weight: Tensor; // [C]
  readonly bias: Tensor; // [C]

  constructor(
    readonly groups: number,
    readonly channels: number,
    readonly eps = 1e-5,
  ) {
    super();
    if (!(Number.isInteger(groups) && groups >= 1 && channels % groups === 0))
      throw new Error(`group norm: ${channels} channels do not split into ${groups} groups`);
    this.weight = this.param('weight', ones([channels]));
    this.bias = this.param('bias', zeros([channels]));
  }

  /** x [N, C, ...] -> [N, C, ...] */
  forward(x: Tensor): Tensor {
    return groupNorm(x, this.groups, this.weight, this.bias, this.eps);
  }
}
