// Linear layer y = x W^T + b, initialised as PyTorch does (uniform +-1/sqrt(in)).
import { zeros } from '../factories.js';
import { linear } from '../functional.js';
import { defaultGenerator, type TorchGenerator } from '../random.js';
import { tidy } from '../scope.js';
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

export interface LinearOptions {
  bias?: boolean;
  gen?: TorchGenerator;
  /** Normal(0, std) initialisation of the weight instead of PyTorch's uniform (e.g. GPT-2's 0.02). */
  std?: number;
  /** Zero-initialised weight and bias (adaLN-zero style outputs). */
  zero?: boolean;
}

export class Linear extends Module {
  readonly weight: Tensor; // [out, in]
  readonly bias: Tensor | null; // [out]

  constructor(
    readonly inFeatures: number,
    readonly outFeatures: number,
    opts: LinearOptions = {},
  ) {
    super();
    const gen = opts.gen ?? defaultGenerator();
    const bound = 1 / Math.sqrt(inFeatures);
    const uniform = (shape: number[]) => gen.uniform(shape, bound);
    const plainInit = !opts.zero && opts.std === undefined;
    let w: Tensor;
    if (opts.zero) w = zeros([outFeatures, inFeatures]);
    else if (opts.std !== undefined)
      w = tidy(() => gen.randn([outFeatures, inFeatures]).mul(opts.std!));
    else w = uniform([outFeatures, inFeatures]);
    this.weight = this.param('weight', w);
    if (opts.bias === false) this.bias = null;
    else this.bias = this.param('bias', plainInit ? uniform([outFeatures]) : zeros([outFeatures]));
  }

  /** x [..., in] -> [..., out] */
  forward(x: Tensor): Tensor {
    return linear(x, this.weight, this.bias);
  }
}
