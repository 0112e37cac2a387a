// The backend's runtime settings (docs/design.md §3, §4): libtorch's and OpenBLAS's threads,
// TF32 and autocast, the default device, and what the backend says of itself (its version, the
// tensors it holds). Each reaches the backend through `native` (native.ts), so the first one
// loads it.
import { type Native, native } from './native.js';

/** Sets the number of intra-op threads libtorch uses, and OpenBLAS's with it. */
export function setNumThreads(n: number): void {
  native.setNumThreads(n);
}

/**
 * fn() with libtorch's element-wise and reduction kernels on `n` threads, the count before
 * restored after: OpenMP's count for this thread's parallel regions only (no worker pool rebuilt,
 * BLAS untouched; setNumThreads costs about 0.7 ms a call), so it may change around every small
 * step. For work on tensors too small to gain from threads, between larger ones that do. Where
 * libtorch's threads are not OpenMP's, fn() as it is.
 */
export function withParallelThreads<T>(n: number, fn: () => T): T {
  const before = native.setParallelThreads(n);
  if (before === 0 || before === n) return fn();
  try {
    return fn();
  } finally {
    native.setParallelThreads(before);
  }
}

/**
 * TensorFloat-32 for float32 matrix products and convolutions on NVIDIA GPUs (PyTorch's
 * torch.backends.cuda.matmul.allow_tf32 and cudnn.allow_tf32; off by default, as PyTorch's).
 */
export function setAllowTF32(on: boolean): void {
  native.setAllowTF32(on);
}

/** The lower-precision dtypes autocast computes in. */
export type AutocastDtype = 'bfloat16' | 'float16';

/**
 * fn() with autocast on in `dtype` on this thread (PyTorch's torch.autocast, CPU and CUDA alike):
 * matrix products and convolutions in `dtype`, float64 tensors left alone, the rest as they are;
 * what was on before is restored after, and the weights' cached casts are dropped when autocast
 * goes off, so an optimiser's update is seen by the next scope. null: fn() as it is.
 */
export function autocast<T>(dtype: AutocastDtype | null, fn: () => T): T {
  if (dtype === null) return fn();
  const before = native.setAutocast(dtype);
  try {
    return fn();
  } finally {
    native.setAutocast(before);
  }
}

export function getAllowTF32(): boolean {
  return native.getAllowTF32();
}

/** The number of intra-op threads libtorch uses. */
export function getNumThreads(): number {
  return native.getNumThreads();
}

/** OpenBLAS's worker count (setNumThreads keeps it equal to libtorch's), 0 under another BLAS. */
export function getBlasThreads(): number {
  return native.getBlasThreads();
}

/**
 * The device of new tensors when a call names none (cpu, cuda or cuda:N; PyTorch's
 * set_default_device): factories, typed arrays and loaded checkpoints land there, random draws
 * move there from the CPU generator. Throws, naming the problem, for a device this build lacks.
 */
export function setDefaultDevice(device: string): void {
  native.setDefaultDevice(device);
}

/** The device of new tensors ("cpu" unless setDefaultDevice chose another). */
export function defaultDevice(): string {
  return native.getDefaultDevice();
}

/** libtorch's version and build, and whether CUDA is available. */
export function torchVersion(): ReturnType<Native['version']> {
  return native.version();
}

/** Live tensor handles and the bytes they hold (CPU), as told to V8. */
export function memoryStats(): ReturnType<Native['memoryStats']> {
  return native.memoryStats();
}
