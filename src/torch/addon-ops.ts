// The ops of the libtorch addon (native/ops.cc; docs/design.md §3), typed: the elementwise
// families (UNARY, BINARY, whose Tensor methods tensor.ts derives from these lists) and every other
// op, one ATen call each, with its parameters and result. addon-api.ts joins this table to the
// rest of the addon's surface.
import { type Dims, fn, type Handle, type HandleOrScalar } from './addon-signature.js';
import type { Reduction } from './types.js';

// The elementwise families (ops.cc's UNARY_FN and BINARY_FN tables).
// biome-ignore format: one family, laid out as in ops.cc
export const UNARY = [
  'neg', 'abs', 'exp', 'log', 'log1p', 'expm1', 'sqrt', 'rsqrt', 'tanh', 'sigmoid', 'erf',
  'erfinv', 'relu', 'silu', 'sin', 'cos', 'floor', 'ceil', 'round', 'trunc', 'sign',
  'reciprocal', 'square', 'lgamma', 'logical_not', 'isnan', 'isinf', 'isfinite', 'log2', 'exp2',
] as const;
// biome-ignore format: one family, laid out as in ops.cc
export const BINARY = [
  'add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge',
  'logical_and', 'logical_or', 'logical_xor', 'remainder', 'fmod', 'atan2', 'floor_divide',
  'xlogy', 'bitwise_and', 'bitwise_or',
] as const;
export type UnaryOp = (typeof UNARY)[number];
export type BinaryOp = (typeof BINARY)[number];

/** The rest of ops.cc, one ATen call each. */
export const OP_SIGNATURES = {
  /** a copy in libtorch's default layout where t is not in it; 'channels_last': [N, C, H, W] stored as [N, H, W, C] */
  contiguous: fn<(t: Handle, format?: 'channels_last') => Handle>(),
  clone: fn<(t: Handle) => Handle>(),
  detach: fn<(t: Handle) => Handle>(),
  gelu: fn<(t: Handle, approximate?: 'none' | 'tanh') => Handle>(),
  /** Clamps to [min, max]; either bound may be null. */
  clamp: fn<(t: Handle, min: HandleOrScalar | null, max?: HandleOrScalar | null) => Handle>(),
  where: fn<(cond: Handle, a: HandleOrScalar, b: HandleOrScalar) => Handle>(),
  sum: fn<(t: Handle, dims?: Dims, keepdim?: boolean) => Handle>(),
  mean: fn<(t: Handle, dims?: Dims, keepdim?: boolean) => Handle>(),
  amax: fn<(t: Handle, dims?: Dims, keepdim?: boolean) => Handle>(),
  amin: fn<(t: Handle, dims?: Dims, keepdim?: boolean) => Handle>(),
  logsumexp: fn<(t: Handle, dims: Dims, keepdim?: boolean) => Handle>(),
  var: fn<(t: Handle, dims?: Dims, unbiased?: boolean, keepdim?: boolean) => Handle>(),
  std: fn<(t: Handle, dims?: Dims, unbiased?: boolean, keepdim?: boolean) => Handle>(),
  /** The vector p-norm (linalg_vector_norm). */
  norm: fn<(t: Handle, p: number, dims?: Dims, keepdim?: boolean) => Handle>(),
  argmax: fn<(t: Handle, dim?: number, keepdim?: boolean) => Handle>(),
  argmin: fn<(t: Handle, dim?: number, keepdim?: boolean) => Handle>(),
  /** [values, indices]. */
  maxDim: fn<(t: Handle, dim: number, keepdim?: boolean) => [Handle, Handle]>(),
  minDim: fn<(t: Handle, dim: number, keepdim?: boolean) => [Handle, Handle]>(),
  all: fn<(t: Handle, dim?: number, keepdim?: boolean) => Handle>(),
  any: fn<(t: Handle, dim?: number, keepdim?: boolean) => Handle>(),
  cumsum: fn<(t: Handle, dim: number) => Handle>(),
  softmax: fn<(t: Handle, dim: number) => Handle>(),
  log_softmax: fn<(t: Handle, dim: number) => Handle>(),
  sort: fn<(t: Handle, dim: number, descending?: boolean) => [Handle, Handle]>(),
  topk: fn<
    (t: Handle, k: number, dim: number, largest?: boolean, sorted?: boolean) => [Handle, Handle]
  >(),
  reshape: fn<(t: Handle, shape: number[]) => Handle>(),
  view: fn<(t: Handle, shape: number[]) => Handle>(),
  permute: fn<(t: Handle, dims: number[]) => Handle>(),
  transpose: fn<(t: Handle, dim0: number, dim1: number) => Handle>(),
  squeeze: fn<(t: Handle, dim?: number) => Handle>(),
  unsqueeze: fn<(t: Handle, dim: number) => Handle>(),
  expand: fn<(t: Handle, shape: number[]) => Handle>(),
  flatten: fn<(t: Handle, startDim?: number, endDim?: number) => Handle>(),
  repeat: fn<(t: Handle, repeats: number[]) => Handle>(),
  flip: fn<(t: Handle, dims: number[]) => Handle>(),
  narrow: fn<(t: Handle, dim: number, start: number, length: number) => Handle>(),
  select: fn<(t: Handle, dim: number, index: number) => Handle>(),
  cat: fn<(ts: Handle[], dim: number) => Handle>(),
  stack: fn<(ts: Handle[], dim: number) => Handle>(),
  /** Chunks of one size, or of the given sizes. */
  split: fn<(t: Handle, sizes: number | number[], dim: number) => Handle[]>(),
  chunk: fn<(t: Handle, chunks: number, dim: number) => Handle[]>(),
  index_select: fn<(t: Handle, dim: number, index: Handle) => Handle>(),
  gather: fn<(t: Handle, dim: number, index: Handle) => Handle>(),
  scatter: fn<(t: Handle, dim: number, index: Handle, src: HandleOrScalar) => Handle>(),
  scatter_add: fn<(t: Handle, dim: number, index: Handle, src: Handle) => Handle>(),
  masked_fill: fn<(t: Handle, mask: Handle, value: HandleOrScalar) => Handle>(),
  /** Advanced indexing t[i0, i1, ...] with int64 or bool tensors. */
  index: fn<(t: Handle, indices: Handle[]) => Handle>(),
  nonzero: fn<(t: Handle) => Handle>(),
  one_hot: fn<(t: Handle, numClasses?: number) => Handle>(),
  matmul: fn<(a: Handle, b: Handle) => Handle>(),
  mm: fn<(a: Handle, b: Handle) => Handle>(),
  bmm: fn<(a: Handle, b: Handle) => Handle>(),
  /** x [..., in], weight [out, in], bias [out]. */
  linear: fn<(x: Handle, weight: Handle, bias?: Handle | null) => Handle>(),
  einsum: fn<(equation: string, ts: Handle[]) => Handle>(),
  /** weight [K, d], int64 indices. */
  embedding: fn<(weight: Handle, indices: Handle) => Handle>(),
  layer_norm:
    fn<
      (
        x: Handle,
        normalizedShape: number[],
        weight?: Handle | null,
        bias?: Handle | null,
        eps?: number,
      ) => Handle
    >(),
  /** x [N, C, H, W], weight [O, C/groups, kh, kw], bias [O]. */
  conv2d:
    fn<
      (
        x: Handle,
        weight: Handle,
        bias: Handle | null | undefined,
        stride: number[],
        padding: number[],
        groups?: number,
      ) => Handle
    >(),
  /** x [N, C, ...] normalised over groups of C/groups channels; weight, bias [C]. */
  group_norm:
    fn<
      (
        x: Handle,
        groups: number,
        weight?: Handle | null,
        bias?: Handle | null,
        eps?: number,
      ) => Handle
    >(),
  /** x [N, C, H, W] -> [N, C, H', W'] by nearest neighbour. */
  upsample_nearest2d: fn<(x: Handle, outputSize: number[]) => Handle>(),
  avg_pool2d: fn<(x: Handle, kernel: number[], stride: number[]) => Handle>(),
  /** Symmetric A [..., n, n] -> [eigenvalues [..., n] ascending, eigenvectors [..., n, n]]. */
  linalg_eigh: fn<(a: Handle) => [Handle, Handle]>(),
  /** logits [N, K, ...] against int64 targets [N, ...]. */
  cross_entropy:
    fn<
      (
        logits: Handle,
        target: Handle,
        weight: Handle | null | undefined,
        reduction: Reduction,
        ignoreIndex?: number,
        labelSmoothing?: number,
      ) => Handle
    >(),
  // in place: the handle stays the same tensor
  add_: fn<(t: Handle, other: HandleOrScalar, alpha?: number) => void>(),
  mul_: fn<(t: Handle, other: HandleOrScalar) => void>(),
  copy_: fn<(t: Handle, src: Handle) => void>(),
  zero_: fn<(t: Handle) => void>(),
  fill_: fn<(t: Handle, value: number | boolean) => void>(),
  lerp_: fn<(t: Handle, end: Handle, weight: number) => void>(),
  masked_fill_: fn<(t: Handle, mask: Handle, value: number | boolean) => void>(),
  /** Same shape and elements. */
  equal: fn<(a: Handle, b: Handle) => boolean>(),
};
