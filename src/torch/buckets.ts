// Gradient buckets for data-parallel all-reduce (docs/design.md §5b): tensors are grouped, in
// order, into buckets of one dtype holding at most `capBytes` each (25 MiB by default, as PyTorch
// DDP's bucket_cap_mb), so that many small gradients travel as a few large messages. A tensor
// larger than the cap gets a bucket of its own; empty tensors are left out.
import { DTYPE_BYTES, type DType } from './types.js';

/** PyTorch DDP's default bucket size (bucket_cap_mb = 25). */
export const DEFAULT_BUCKET_BYTES = 25 * 1024 * 1024;

/** The indices of `tensors` in each bucket, in order. */
export function planBuckets(
  tensors: readonly { dtype: DType; numel: number }[],
  capBytes = DEFAULT_BUCKET_BYTES,
): number[][] {
  if (!(capBytes > 0)) throw new RangeError(`bucket size must be positive, got ${capBytes}`);
  const open = new Map<DType, { indices: number[]; bytes: number }>();
  const out: number[][] = [];
  tensors.forEach((t, i) => {
    const bytes = t.numel * DTYPE_BYTES[t.dtype];
    if (bytes === 0) return;
    const b = open.get(t.dtype);
    if (b !== undefined && b.bytes + bytes <= capBytes) {
      b.indices.push(i);
      b.bytes += bytes;
      return;
    }
    const fresh = { indices: [i], bytes };
    out.push(fresh.indices);
    open.set(t.dtype, fresh);
  });
  return out;
}
