// torch.distributed (docs/design.md §5b): process groups and collectives with PyTorch's names, on
// libtorch's c10d (native/distributed.cc): a TCPStore (hosted by rank 0) or FileStore rendezvous
// and ProcessGroupGloo. Each collective blocks the calling thread until it is done or the group's
// timeout passes; failures (a dead peer, a timeout) throw one line naming the operation and this
// rank. One process per rank: two ranks in one thread would wait for each other.
import { planBuckets } from './buckets.js';
import { type GroupHandle, native } from './native.js';
import { Tensor } from './tensor.js';
import type { Backend, InitOptions, ReduceOp } from './types.js';

export type { Backend, InitOptions, ReduceOp, StoreOptions } from './types.js';

/** PyTorch's default process-group timeout. */
export const DEFAULT_TIMEOUT_MS = 30 * 60 * 1000;

/** torch.distributed.init_process_group: joins the group (blocks until every rank has). */
export function initProcessGroup(options: InitOptions): ProcessGroup {
  return new ProcessGroup(native.newProcessGroup({ timeoutMs: DEFAULT_TIMEOUT_MS, ...options }));
}

/** One rank's membership of a process group. */
export class ProcessGroup {
  readonly handle: GroupHandle;
  readonly rank: number;
  readonly worldSize: number;
  readonly backend: Backend;

  constructor(handle: GroupHandle) {
    this.handle = handle;
    const info = native.pgInfo(handle);
    this.rank = info.rank;
    this.worldSize = info.worldSize;
    this.backend = info.backend;
  }

  /** Reduces `tensor` over all ranks, in place (every rank gets the result); returns it. */
  allReduce(tensor: Tensor, op: ReduceOp = 'sum'): Tensor {
    native.pgAllReduce(this.handle, [tensor.handle], op);
    return tensor;
  }

  /**
   * Reduces every tensor in place, as a few coalesced all-reduces of at most `bucketBytes` each
   * (PyTorch DDP's 25 MiB by default); every rank must pass the same shapes in the same order.
   */
  allReduceMany(tensors: readonly Tensor[], op: ReduceOp = 'sum', bucketBytes?: number): void {
    const buckets = planBuckets(
      tensors.map((t) => ({ dtype: t.dtype, numel: t.numel })),
      bucketBytes,
    );
    for (const bucket of buckets) {
      native.pgAllReduce(
        this.handle,
        bucket.map((i) => tensors[i]!.handle),
        op,
      );
    }
  }

  /** Copies `tensor` of rank `src` into `tensor` on every other rank, in place; returns it. */
  broadcast(tensor: Tensor, src = 0): Tensor {
    native.pgBroadcast(this.handle, tensor.handle, src);
    return tensor;
  }

  /** Every rank's `tensor` (same shape and dtype on all ranks), in rank order. */
  allGather(tensor: Tensor): Tensor[] {
    return native.pgAllGather(this.handle, tensor.handle).map((h) => new Tensor(h));
  }

  /** Returns once every rank has called it. */
  barrier(): void {
    native.pgBarrier(this.handle);
  }

  /** Leaves the group: Gloo's threads stop, the store closes; later calls throw. */
  destroy(): void {
    native.pgDestroy(this.handle);
  }
}
