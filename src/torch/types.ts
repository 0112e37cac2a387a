// The plain types that the addon's table (addon-api.ts) and the classes above it share: element
// types, typed arrays, loss reductions and torch.distributed's options. This file imports
// nothing, so the table can use them without importing the files built on it; tensor.ts and
// distributed.ts re-export them under their old names.

export type DType =
  | 'float32'
  | 'float64'
  | 'int64'
  | 'int32'
  | 'bool'
  | 'uint8'
  | 'float16'
  | 'bfloat16';
export type TypedArray =
  | Float32Array
  | Float64Array
  | BigInt64Array
  | Int32Array
  | Uint8Array
  | Uint16Array;
export type Reduction = 'none' | 'mean' | 'sum';

/** The bytes of one element of each dtype. */
export const DTYPE_BYTES: Record<DType, number> = {
  float32: 4,
  float64: 8,
  int64: 8,
  int32: 4,
  bool: 1,
  uint8: 1,
  float16: 2,
  bfloat16: 2,
};

/** Backends by torch.distributed's names; 'nccl' (GPUs) needs a libtorch with CUDA. */
export type Backend = 'gloo' | 'nccl';
/** Reductions by PyTorch's names; 'avg' is the sum divided by the world size (truncated for integers). */
export type ReduceOp = 'sum' | 'avg' | 'product' | 'min' | 'max';

/** The rendezvous: a TCP store hosted by the master (rank 0), or a file every rank can reach. */
export type StoreOptions =
  | { kind: 'tcp'; host: string; port: number; isMaster: boolean }
  | { kind: 'file'; path: string };

export interface InitOptions {
  backend: Backend;
  store: StoreOptions;
  rank: number;
  worldSize: number;
  /** For every collective, and the rendezvous unless rendezvousMs is given (default 30 minutes, as PyTorch's). */
  timeoutMs?: number;
  /** How long joining waits for the store and the other ranks (default: timeoutMs). */
  rendezvousMs?: number;
  /** The network interface Gloo binds to (e.g. 'eth0'); default: loopback 127.0.0.1. */
  interface?: string;
  /** Or the hostname or address Gloo binds to. */
  hostname?: string;
}
