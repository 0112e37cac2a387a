// The libtorch addon's surface (docs/design.md §3), typed from this one table: every function that
// native/*.cc registers, with its parameters and result. The type of `native` is derived from
// it, so a misspelled op or a wrong argument is a compile error, and test/addon-surface.test.ts
// fails when the built addon exports a function the table lacks or lacks one it declares.
// Handles are opaque: tensors, generators, optimizers and process groups live in libtorch.
// The floor of src/torch: this file imports only the plain types of types.ts, and tensor.ts
// derives most Tensor methods from it.
import type { Backend, DType, InitOptions, ReduceOp, Reduction, TypedArray } from './types.js';

/** An opaque libtorch tensor handle (a tagged N-API External). */
export type Handle = { readonly __tensor: unique symbol };
/** An opaque libtorch generator handle. */
export type GenHandle = { readonly __generator: unique symbol };
/** An opaque libtorch optimizer handle. */
export type OptHandle = { readonly __optimizer: unique symbol };
/** An opaque c10d process-group handle. */
export type GroupHandle = { readonly __group: unique symbol };

/** A tensor, or a number/boolean the addon wraps as a scalar (PyTorch's promotion rules). */
export type HandleOrScalar = Handle | number | boolean;
/** One dimension or several. */
type Dims = number | number[];
/** What an optimizer keeps per parameter: its step count and buffers. */
type OptState = Record<string, number | Handle> | null;

/** A table entry: its value only marks the name, its type is the function's signature. */
type Sig<F> = { readonly signature?: F };
const fn = <F extends (...args: never[]) => unknown>(): Sig<F> => ({});

// ---- ops.cc: the elementwise families (its UNARY_FN and BINARY_FN tables) ----
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

const SIGNATURES = {
  // ---- runtime.cc (the default device and memoryStats: addon.cc) ----
  setNumThreads: fn<(n: number) => void>(),
  getNumThreads: fn<() => number>(),
  /** OpenBLAS's thread count (setNumThreads sets it too), 0 when the BLAS is another. */
  getBlasThreads: fn<() => number>(),
  setDefaultDevice: fn<(device: string) => void>(),
  /** TensorFloat-32 in CUDA float32 matmuls and convolutions (PyTorch's allow_tf32). */
  setAllowTF32: fn<(on: boolean) => void>(),
  getAllowTF32: fn<() => boolean>(),
  /** autocast on (a dtype) or off (null) on this thread; returns the dtype on before, or null */
  setAutocast: fn<(dtype: 'bfloat16' | 'float16' | null) => 'bfloat16' | 'float16' | null>(),
  getDefaultDevice: fn<() => string>(),
  version:
    fn<
      () => {
        torch: string;
        cuda: boolean;
        cudaDevices: number;
        config: string;
        /** the glibc malloc settings the addon made at load (sizes in bytes, arenaMax the cap on malloc arenas), null when left alone */
        malloc: {
          mmapThreshold: number;
          trimThreshold: number;
          topPad: number;
          arenaMax: number;
          /** 'malloc': CPU tensor buffers from plain malloc, not c10's posix_memalign (native/cpu_allocator.cc) */
          allocator: 'malloc';
        } | null;
      }
    >(),
  memoryStats: fn<() => { liveTensors: number; tensorBytes: number }>(),

  // ---- tensor_io.cc: data in and out, queries, factories ----
  /** A copy of a typed array's elements; dtype converts. */
  fromTyped: fn<(data: TypedArray, shape: number[], dtype?: DType) => Handle>(),
  /** Raw little-endian bytes of any dtype. */
  fromBytes: fn<(bytes: Uint8Array, dtype: DType, shape: number[]) => Handle>(),
  /** A typed array aliasing the tensor (copied first if not contiguous or not on CPU). */
  toTyped: fn<(t: Handle) => TypedArray>(),
  bytes: fn<(t: Handle) => Uint8Array>(),
  item: fn<(t: Handle) => number | boolean>(),
  info: fn<
    (t: Handle) => { shape: number[]; dtype: DType; device: string; requiresGrad: boolean }
  >(),
  shape: fn<(t: Handle) => number[]>(),
  dtype: fn<(t: Handle) => DType>(),
  device: fn<(t: Handle) => string>(),
  format: fn<(t: Handle) => string>(),
  dispose: fn<(t: Handle) => void>(),
  isDisposed: fn<(t: Handle) => boolean>(),
  zeros: fn<(shape: number[], dtype?: DType, device?: string) => Handle>(),
  ones: fn<(shape: number[], dtype?: DType, device?: string) => Handle>(),
  full: fn<(shape: number[], value: number, dtype?: DType, device?: string) => Handle>(),
  arange:
    fn<(start: number, end: number, step: number, dtype?: DType, device?: string) => Handle>(),
  linspace:
    fn<(start: number, end: number, steps: number, dtype?: DType, device?: string) => Handle>(),
  eye: fn<(n: number, dtype?: DType, device?: string) => Handle>(),
  to: fn<(t: Handle, dtype?: DType, device?: string) => Handle>(),

  // ---- tensor_io.cc: seeded draws on an explicit CPU generator ----
  newGenerator: fn<(seed: number | bigint) => GenHandle>(),
  generatorGetState: fn<(g: GenHandle) => Handle>(),
  generatorSetState: fn<(g: GenHandle, state: Handle) => void>(),
  rand: fn<(shape: number[], g: GenHandle, dtype?: DType, device?: string) => Handle>(),
  randn: fn<(shape: number[], g: GenHandle, dtype?: DType, device?: string) => Handle>(),
  /** Integers in [low, high), int64. */
  randint:
    fn<(low: number, high: number, shape: number[], g: GenHandle, device?: string) => Handle>(),
  randperm: fn<(n: number, g: GenHandle, device?: string) => Handle>(),
  bernoulli: fn<(p: Handle, g: GenHandle) => Handle>(),
  /** probs [N?, K] -> int64 [N?, n]. */
  multinomial: fn<(probs: Handle, n: number, replacement: boolean, g: GenHandle) => Handle>(),
  /** Inverted dropout: x * bernoulli(1 - p) / (1 - p). */
  dropout: fn<(x: Handle, p: number, train: boolean, g: GenHandle) => Handle>(),

  // ---- ops.cc: the rest, one ATen call each ----
  contiguous: fn<(t: Handle) => Handle>(),
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

  // ---- autograd.cc ----
  setRequiresGrad: fn<(t: Handle, on?: boolean) => void>(),
  backward: fn<(t: Handle, grad?: Handle | null, retainGraph?: boolean) => void>(),
  /** The accumulated gradient, or null. */
  grad: fn<(t: Handle) => Handle | null>(),
  clearGrad: fn<(t: Handle) => void>(),
  setGradEnabled: fn<(on: boolean) => void>(),
  isGradEnabled: fn<() => boolean>(),
  /** The total norm before clipping. */
  clipGradNorm: fn<(params: Handle[], maxNorm: number) => Handle>(),

  // ---- optim.cc ----
  newOptimizer:
    fn<
      (
        kind: 'adamw' | 'sgd',
        groups: { params: Handle[]; weightDecay?: number | undefined }[],
        options: object,
      ) => OptHandle
    >(),
  /** lr, when given, becomes every group's learning rate first. */
  optimStep: fn<(opt: OptHandle, lr?: number) => void>(),
  optimZeroGrad: fn<(opt: OptHandle) => void>(),
  /** Per parameter, in group order: null or {step?, <buffer>: tensor...}. */
  optimGetState: fn<(opt: OptHandle) => OptState[]>(),
  optimSetState: fn<(opt: OptHandle, states: OptState[]) => void>(),

  // ---- distributed.cc: c10d process groups (Gloo); each call blocks at most the timeout ----
  /** Rendezvous and join (a TCPStore hosted by rank 0, or a FileStore). */
  newProcessGroup: fn<(options: InitOptions) => GroupHandle>(),
  /** In place; several tensors (one dtype) go as one coalesced all-reduce. */
  pgAllReduce: fn<(g: GroupHandle, ts: Handle[], op: ReduceOp) => void>(),
  pgBroadcast: fn<(g: GroupHandle, t: Handle, src: number) => void>(),
  /** One tensor per rank, in rank order. */
  pgAllGather: fn<(g: GroupHandle, t: Handle) => Handle[]>(),
  pgBarrier: fn<(g: GroupHandle) => void>(),
  pgInfo:
    fn<
      (g: GroupHandle) => { rank: number; worldSize: number; backend: Backend; timeoutMs: number }
    >(),
  pgDestroy: fn<(g: GroupHandle) => void>(),
};

type Signatures = {
  [K in keyof typeof SIGNATURES]: NonNullable<(typeof SIGNATURES)[K]['signature']>;
};

/** The addon's exports, typed. */
export type Native = { [K in UnaryOp]: (t: Handle) => Handle } & {
  [K in BinaryOp]: (a: HandleOrScalar, b: HandleOrScalar) => Handle;
} & Signatures;

/** The name of every function the addon exports. */
export const ADDON_FUNCTIONS: readonly (keyof Native)[] = [
  ...UNARY,
  ...BINARY,
  ...(Object.keys(SIGNATURES) as (keyof typeof SIGNATURES)[]),
];
