// The TypeScript backend's buffers (docs/design.md §3b): typed arrays made for tensors, kept for
// reuse when the tensors handed out on them are disposed (as libtorch's CPU allocator keeps freed
// blocks), and a count of the in-place writes to each, by which a cache of something computed
// from a buffer (the matrix kernel's transposed weights) knows when it is stale.
import type { DType } from '../types.js';

/** A tensor's elements (tensor-data.ts): float32, float64 (int64 too, exact to 2^53), int32, bytes. */
export type Buf = Float32Array | Float64Array | Int32Array | Uint8Array;

/** What the count of handed-out tensors reads of one (tensor-data.ts JsTensor). */
interface HeldTensor {
  data: Buf;
  handedOut: boolean;
}

/**
 * How often each buffer has been written in place (writeInto): a cache of something computed
 * from a buffer (the matrix kernel's transposed weights) is valid while this has not moved.
 */
const epochs = new WeakMap<Buf, number>();
export const writeEpoch = (b: Buf): number => epochs.get(b) ?? 0;
export const markWritten = (b: Buf): void => {
  epochs.set(b, writeEpoch(b) + 1);
};

/**
 * Buffers of disposed tensors kept for reuse, as libtorch's CPU allocator keeps freed blocks: a
 * forward pass makes and frees the same sizes again and again, and a fresh JavaScript buffer
 * costs its allocation, its zeroing and the garbage collector's time. A buffer is kept only when
 * newBuf made it (never a user's array) and no tensor handed out on it is live (handOut and
 * release count them; an op's own temporaries are gone when it returns); at most POOL_BYTES.
 */
const POOL_BYTES = 64 * 2 ** 20;
const MIN_POOLED = 1024; // elements: smaller buffers are cheap to make
const made = new WeakSet<Buf>();
const handles = new WeakMap<Buf, number>();
const pool = new Map<string, Buf[]>();
let pooledBytes = 0;

const poolKey = (kind: string, n: number) => `${kind}:${n}`;

/** A tensor handed out by the op table: its buffer is not reused while it lives. */
export function handOut(t: HeldTensor): void {
  if (t.handedOut) return;
  t.handedOut = true;
  handles.set(t.data, (handles.get(t.data) ?? 0) + 1);
}

/** A handed-out tensor disposed: its buffer is kept for reuse once no other holds it. */
export function release(t: HeldTensor): void {
  if (!t.handedOut) return;
  t.handedOut = false;
  const b = t.data;
  const n = (handles.get(b) ?? 1) - 1;
  if (n > 0) {
    handles.set(b, n);
    return;
  }
  handles.delete(b);
  if (!made.has(b) || b.length < MIN_POOLED || pooledBytes + b.byteLength > POOL_BYTES) return;
  made.delete(b);
  markWritten(b); // what was computed from its elements (transposed weights) is stale now
  const key = poolKey(b.constructor.name, b.length);
  const list = pool.get(key);
  if (list) list.push(b);
  else pool.set(key, [b]);
  pooledBytes += b.byteLength;
}

const BUFFERS = {
  float64: Float64Array,
  int64: Float64Array,
  int32: Int32Array,
  bool: Uint8Array,
  uint8: Uint8Array,
  float32: Float32Array,
  bfloat16: Float32Array,
  float16: Float32Array,
} as const;

/**
 * A new zeroed buffer for `n` elements of `dtype` (a kept one, zeroed, where one fits; not
 * zeroed when `unset`: the caller writes every element).
 */
export function newBuf(dtype: DType, n: number, unset = false): Buf {
  const Kind = BUFFERS[dtype];
  if (n >= MIN_POOLED) {
    const b = pool.get(poolKey(Kind.name, n))?.pop();
    if (b) {
      pooledBytes -= b.byteLength;
      made.add(b);
      return unset ? b : b.fill(0);
    }
  }
  const b = new Kind(n);
  made.add(b);
  return b;
}
