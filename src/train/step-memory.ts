// What a training step of a transformer holds in memory, estimated before any work, so that a
// length or batch the machine cannot hold is refused in one line instead of being killed by the
// kernel partway (a --length of 100,000 grew past 24 GB). Per layer application (depth x loops),
// kept for the backward pass in float32: attention's scores and weights [B, H, L, L] and about
// RESIDUAL_TENSORS tensors of [B, L, width] (the projections, the MLP's hidden 4 width, norms
// and residuals). An estimate of the order, not an allocator's count.
import { totalmem } from 'node:os';
import type { TrainConfig } from './config.js';

/** Tensors of [B, L, width] a block keeps for its backward pass (MLP hidden counted as 4 each). */
const RESIDUAL_TENSORS = 16;
/**
 * How far past the machine's memory the estimate may go before a step is refused: an estimate of
 * the order, so only a step clearly out of reach is refused (bfloat16 and the allocator's reuse
 * can halve it).
 */
const MEMORY_SHARE = 2;

/** Bytes a training step of `config` holds; null for a network other than the transformer. */
export function stepBytes(config: TrainConfig): number | null {
  const m = config.model;
  if ('arch' in m && m.arch === 'unet') return null;
  const t = m as { width: number; depth: number; heads: number; loops?: number };
  const L = config.length;
  if (L === undefined) return null;
  const B = config.batch;
  const layers = t.depth * (t.loops ?? 1);
  return 4 * layers * B * L * (2 * t.heads * L + RESIDUAL_TENSORS * t.width);
}

const GB = (bytes: number) => `${(bytes / 2 ** 30).toFixed(bytes < 2 ** 31 ? 1 : 0)} GB`;

/**
 * Refuses a config whose step would need more than MEMORY_SHARE times this machine's memory, on
 * the CPU (a GPU's memory is its own, and libtorch names its shortage there).
 */
export function checkStepMemory(config: TrainConfig, device = 'cpu', memory = totalmem()): void {
  if (device !== 'cpu') return;
  const need = stepBytes(config);
  if (need === null || need <= MEMORY_SHARE * memory) return;
  throw new Error(
    `a training step at length ${config.length} and batch ${config.batch} would hold about ${GB(need)} (attention over ${config.length} x ${config.length} positions in every layer); this machine has ${GB(memory)}: use a shorter --length or a smaller --batch`,
  );
}
