// nn: modules built on the tensor API.
export { MultiHeadSelfAttention } from './attention.js';
export { Conv2d, type Conv2dOptions } from './conv2d.js';
export { Embedding } from './embedding.js';
export { GroupNorm } from './group-norm.js';
export { LayerNorm } from './layer-norm.js';
export { Linear, type LinearOptions } from './linear.js';
export { MLP } from './mlp.js';
export { Module } from './module.js';
export { Rotary } from './rotary.js';
export { type BlockOptions, TransformerBlock } from './transformer-block.js';
