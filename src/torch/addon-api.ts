// The libtorch addon's surface (docs/design.md §3), typed from one table: every function that
// native/*.cc registers, with its parameters and result (this file's entries, and ops.cc's in
// addon-ops.ts). The type of `native` is derived from it, so a misspelled op or a wrong argument
// is a compile error, and test/addon-surface.test.ts fails when the built addon exports a
// function the table lacks or lacks one it declares.
// Handles are opaque (addon-signature.ts): tensors, generators, optimizers and process groups
// live in libtorch. The floor of src/torch: the table's files import only the plain types of
// types.ts, and tensor.ts derives most Tensor methods from them.

import { BINARY, type BinaryOp, OP_SIGNATURES, UNARY, type UnaryOp } from './addon-ops.js';
import {
  fn,
  type GenHandle,
  type GroupHandle,
  type Handle,
  type HandleOrScalar,
  type OptHandle,
} from './addon-signature.js';
import type { Backend, DType, InitOptions, ReduceOp, TypedArray } from './types.js';

export { BINARY, type BinaryOp, UNARY, type UnaryOp } from './addon-ops.js';
export type {
  GenHandle,
  GroupHandle,
  Handle,
  HandleOrScalar,
  OptHandle,
} from './addon-signature.js';

/** What an optimizer keeps per parameter: its step count and buffers. */
type OptState = Record<string, number | Handle> | null;

const SIGNATURES = {
  // ---- runtime.cc (the default device and memoryStats: addon.cc) ----
  setNumThreads: fn<(n: number) => void>(),
  /** OpenMP's count for this thread's parallel regions alone; the count before (0: not OpenMP) */
  setParallelThreads: fn<(n: number) => number>(),
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
        /** the GPU multiplies bfloat16 in hardware (compute capability 8.0 or later) */
        cudaBf16: boolean;
        config: string;
        /** the glibc malloc settings the addon made at load (sizes in bytes, arenaMax the cap on malloc arenas), null when left alone */
        malloc: {
          mmapThreshold: number;
          trimThreshold: number;
          topPad: number;
          arenaMax: number;
          /** 'malloc': CPU tensor buffers from plain malloc, not c10's posix_memalign (native/cpu_allocator.cc) */
          allocator: 'malloc';
          /** the most bytes of freed buffers of 32 MiB or more kept for reuse (native/cpu_allocator.cc) */
          bigBufferCache: number;
        } | null;
      }
    >(),
  /** live tensors and their bytes; the bytes of freed big buffers kept for reuse (cpu_allocator.cc) */
  memoryStats: fn<() => { liveTensors: number; tensorBytes: number; keptBigBuffers: number }>(),

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

  // ---- random.cc: seeded draws on an explicit CPU generator ----
  newGenerator: fn<(seed: number | bigint) => GenHandle>(),
  generatorGetState: fn<(g: GenHandle) => Handle>(),
  generatorSetState: fn<(g: GenHandle, state: Handle) => void>(),
  rand: fn<(shape: number[], g: GenHandle, dtype?: DType, device?: string) => Handle>(),
  randn: fn<(shape: number[], g: GenHandle, dtype?: DType, device?: string) => Handle>(),
  /** row r's counts[r] draws of shape tail from gens[r], concatenated: [sum counts, ...tail] */
  randnRows:
    fn<
      (
        gens: GenHandle[],
        counts: number[],
        tail: number[],
        dtype?: DType,
        device?: string,
      ) => Handle
    >(),
  /** Integers in [low, high), int64. */
  randint:
    fn<(low: number, high: number, shape: number[], g: GenHandle, device?: string) => Handle>(),
  randperm: fn<(n: number, g: GenHandle, device?: string) => Handle>(),
  bernoulli: fn<(p: Handle, g: GenHandle) => Handle>(),
  /** probs [N?, K] -> int64 [N?, n]. */
  multinomial: fn<(probs: Handle, n: number, replacement: boolean, g: GenHandle) => Handle>(),
  /** Inverted dropout: x * bernoulli(1 - p) / (1 - p). */
  dropout: fn<(x: Handle, p: number, train: boolean, g: GenHandle) => Handle>(),

  // ---- ops.cc: one ATen call each (addon-ops.ts) ----
  ...OP_SIGNATURES,

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

  // ---- profiler.cc: libtorch's autograd profiler, aten ops by name ----
  profileStart: fn<() => void>(),
  /** Every op run since profileStart: calls, and CPU time with and without the ops it called. */
  profileStop: fn<() => { name: string; calls: number; totalUs: number; selfUs: number }[]>(),
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

/** The functions of the table an export object lacks (the addon's, or the TypeScript backend's). */
export const missingFunctions = (e: Record<string, unknown>): string[] =>
  ADDON_FUNCTIONS.filter((name) => typeof e[name] !== 'function');

/** Whether an export object has every function of the table: then it is the table. */
export const isNative = (e: Record<string, unknown>): e is Record<string, unknown> & Native =>
  missingFunctions(e).length === 0;
