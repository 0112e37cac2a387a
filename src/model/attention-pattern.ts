// Attention restricted to a task's constraint graph (an inductive bias of the network, independent
// of the process and of W): the task's structure gives, per relation r (Sudoku: row, column, box),
// the group index of every position, and positions i, j are related by r when their groups are
// equal (so every position is related to itself). 'dense' attends everywhere (no pattern); 'peers'
// lets every head attend only the union of the relations (the position itself and its peers: 21 of
// Sudoku's 81 cells); 'typed' gives each head one relation, the structure's relations and then
// their union, heads split evenly in contiguous blocks. The pattern is an additive bias
// [H or 1, L, L] (0 = may attend, -inf = may not), built once. A causal pattern (position i sees
// positions j <= i: an autoregressive model's) is one more such bias, added to the relations'.
import { arange, keep, stack, type Tensor, tensor, tidy, zeros } from '../torch/index.js';

export type AttentionKind = 'dense' | 'peers' | 'typed';

export const ATTENTION_KINDS: readonly AttentionKind[] = ['dense', 'peers', 'typed'];

/** groups [L] -> [L, L] bool: i and j are in the same group. */
function sameGroup(groups: number[]): Tensor {
  const g = tensor(groups, [groups.length], 'int64'); // [L]
  return g.unsqueeze(1).eq(g.unsqueeze(0)); // [L, L]
}

/**
 * The relations of `kind` as a bool pattern: [1, L, L] ('peers') or [H, L, L] ('typed'; head h
 * has relation floor(h / (H / R)) of the R = structures + 1). True = query i may attend key j.
 */
export function attentionPattern(
  kind: Exclude<AttentionKind, 'dense'>,
  structure: number[][] | undefined,
  heads: number,
  length: number,
): Tensor {
  if (!structure || structure.length === 0)
    throw new Error(`model.attention '${kind}' needs the task's structure (model.structure)`);
  structure.forEach((g, k) => {
    if (g.length !== length)
      throw new Error(`structure ${k}: ${g.length} group indices for length ${length}`);
  });
  const R = structure.length + 1;
  if (kind === 'typed' && heads % R !== 0)
    throw new Error(
      `model.heads: ${heads} heads do not split evenly over the ${R} relations of 'typed' attention`,
    );
  return tidy(() => {
    const relations = structure.map(sameGroup); // R - 1 of [L, L]
    const peers = relations.reduce((a, b) => a.logicalOr(b)); // [L, L]
    if (kind === 'peers') return peers.unsqueeze(0); // [1, L, L]
    return stack([...relations, peers]) // [R, L, L]
      .unsqueeze(1)
      .expand([R, heads / R, length, length])
      .reshape([heads, length, length]); // [H, L, L]
  });
}

/** The additive bias of `kind` (kept, derived; undefined for 'dense'): [H or 1, L, L]. */
export function attentionBias(
  kind: AttentionKind,
  structure: number[][] | undefined,
  heads: number,
  length: number,
): Tensor | undefined {
  if (kind === 'dense') return undefined;
  return keep(
    tidy(() => {
      const allowed = attentionPattern(kind, structure, heads, length); // [H or 1, L, L] bool
      return zeros(allowed.shape).maskedFill(allowed.logicalNot(), Number.NEGATIVE_INFINITY);
    }),
  );
}

/** The causal bias [1, L, L] (kept, derived): 0 where key j <= query i, -inf after it. */
export function causalBias(length: number): Tensor {
  return keep(
    tidy(() => {
      const i = arange(0, length); // [L]
      const later = i.unsqueeze(0).gt(i.unsqueeze(1)); // [L, L]: key j after query i
      return zeros([1, length, length]).maskedFill(later.unsqueeze(0), Number.NEGATIVE_INFINITY);
    }),
  );
}
