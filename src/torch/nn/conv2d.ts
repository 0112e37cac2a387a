// 2-D convolution y = W * x + b over [N, C, H, W] (libtorch's conv2d), square kernel, stride and
// "same"-style padding; initialised as PyTorch does (uniform +-1/sqrt(C k^2) for weight and bias),
// or zero (the last convolution of an ADM residual branch). With `channelsLast` the input is stored
// [N, H, W, C] first, and the output comes in that layout, its channels contiguous at each pixel:
// the image U-Net's last convolution gives its logits so (a site's values one row of memory, as
// the samplers read them); the convolution itself costs about the same (32 to 256 channels on
// 28 x 28, batch 64, one thread: 188 ms against 195).
import { zeros } from '../factories.js';
import { conv2d } from '../functional.js';
import { defaultGenerator, type TorchGenerator } from '../random.js';
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

export interface Conv2dOptions {
  stride?: number;
  padding?: number; // default (kernel - 1) / 2: the output keeps H x W at stride 1
  gen?: TorchGenerator;
  zero?: boolean;
  channelsLast?: boolean;
}

export class Conv2d extends Module {
  readonly weight: Tensor; // [out, in, k, k]
  readonly bias: Tensor; // [out]
  readonly stride: number;
  readonly padding: number;
  readonly channelsLast: boolean;

  constructor(
    readonly inChannels: number,
    readonly outChannels: number,
    readonly kernel: number,
    opts: Conv2dOptions = {},
  ) {
    super();
    this.stride = opts.stride ?? 1;
    this.padding = opts.padding ?? Math.floor((kernel - 1) / 2);
    this.channelsLast = opts.channelsLast ?? false;
    const gen = opts.gen ?? defaultGenerator();
    const bound = 1 / Math.sqrt(inChannels * kernel * kernel);
    const init = (shape: number[]) => (opts.zero ? zeros(shape) : gen.uniform(shape, bound));
    this.weight = this.param('weight', init([outChannels, inChannels, kernel, kernel]));
    this.bias = this.param('bias', init([outChannels]));
  }

  /** x [N, in, H, W] -> [N, out, H', W'] (stored [N, H', W', out] when channelsLast) */
  forward(x: Tensor): Tensor {
    const input = this.channelsLast ? x.contiguous('channels_last') : x;
    return conv2d(input, this.weight, this.bias, { stride: this.stride, padding: this.padding });
  }
}
