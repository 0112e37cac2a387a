// Data-parallel training (docs/design.md §5b; PyTorch DDP's scheme on torch.distributed): the
// global batch of a step is cut into `shards` equal parts, a number fixed by the run's config, and
// the ranks share them out (rank r takes shards r, r + N, ...). Each shard draws its times, data,
// corruption and dropout from its own generator, seeded by (seed, step, shard) alone, so the global
// batch and its randomness do not depend on how many ranks there are: N ranks, or one process doing
// every shard in turn, take the same step (to the order of float additions), and a run may resume
// with any N that divides the shards. The objective is the mean of the shard losses; gradients are
// summed over ranks by bucketed all-reduces; the clip, the optimiser, the EMA and the metrics then
// see the global batch's gradient and loss.
import type { ProcessGroup } from '../torch/distributed.js';
import { type Tensor, TorchGenerator, tensor, tidy } from '../torch/index.js';

/** This process's place in the group (worldSize 1 and no group: a single process). */
export interface DataParallel {
  group?: ProcessGroup;
  rank: number;
  worldSize: number;
}

export const SINGLE: DataParallel = { rank: 0, worldSize: 1 };

/** The shards rank `rank` of `worldSize` takes; refuses a world that does not divide them. */
export function shardsOf(shards: number, dp: DataParallel): number[] {
  if (!(Number.isInteger(shards) && shards >= 1))
    throw new Error(`shards must be a whole number >= 1, got ${shards}`);
  if (shards % dp.worldSize !== 0)
    throw new Error(
      `the run's batch is cut into ${shards} shards, which ${dp.worldSize} processes cannot share equally`,
    );
  return Array.from({ length: shards / dp.worldSize }, (_, k) => dp.rank + k * dp.worldSize);
}

/** The generator of shard `shard` at step `step` of a run seeded `seed`. */
export function shardGenerator(seed: number, step: number, shard: number): TorchGenerator {
  const key = (BigInt(seed) * 1_000_003n + BigInt(step)) * 65_537n + BigInt(shard) + 1n;
  return new TorchGenerator(key % 2n ** 63n);
}

/** Sums the gradients of `params` over the ranks (no-op for a single process). */
export function syncGradients(params: readonly Tensor[], dp: DataParallel): void {
  const group = dp.group;
  if (!group) return;
  tidy(() => {
    const grads = params.map((p) => p.grad).filter((g): g is Tensor => g !== null);
    group.allReduceMany(grads, 'sum');
  });
}

/** The sum of a number over the ranks. */
export function sumOver(x: number, dp: DataParallel): number {
  if (!dp.group) return x;
  const t = tensor([x], [1], 'float64');
  dp.group.allReduce(t, 'sum');
  const out = t.item();
  t.dispose();
  return out;
}

/** Rank 0's values of `tensors`, copied into every rank's, in place. */
export function broadcastFromZero(tensors: readonly Tensor[], dp: DataParallel): void {
  if (!dp.group) return;
  for (const t of tensors) dp.group.broadcast(t, 0);
}
