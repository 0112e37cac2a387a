// A classifier averaged over symmetric copies of the state (test-time augmentation): where a
// task is invariant under permutations of its positions (Sudoku's geometric group: bands,
// stacks, lines within them, transposition; src/tasks/sudoku/symmetry.ts), the true posterior
// p(x0 | y_t) of eq. (classifier) is equivariant under them, while a trained network is so only
// as far as training made it. Each copy k moves the state's positions by its permutation
// (position i of the copy is position perm[k][i] of the state: y, the committed flags and the
// time alike, since the forward laws act on each position on its own), the network scores all
// copies in one batch, each copy's logits are moved back, and the returned logits are the log of
// the copies' mean probability (a mixture, so a site one copy is sure of and another is not
// stays in doubt). K copies cost K network passes for one classifier evaluation, which the
// samplers count as one NFE: a run's cost is its NFE times K. The first copy should be the
// identity, so that one copy gives the base classifier back exactly.
import { cat, noGrad, type Tensor, tensor } from '../torch/index.js';
import type { Classifier } from './types.js';

/** Checks that every entry of `perms` is a permutation of 0..L-1. */
export function checkPermutations(perms: readonly (readonly number[])[], L: number): void {
  if (perms.length === 0) throw new Error('a symmetric classifier needs at least one copy');
  for (const [k, p] of perms.entries()) {
    const seen = new Uint8Array(L);
    if (p.length !== L)
      throw new Error(`copy ${k}: a permutation of ${L} positions, got ${p.length}`);
    for (const i of p) {
      if (!(Number.isInteger(i) && i >= 0 && i < L) || seen[i])
        throw new Error(`copy ${k} is not a permutation of 0..${L - 1}`);
      seen[i] = 1;
    }
  }
}

/** [L]: the inverse of permutation p (inv[p[i]] = i). */
function inverse(p: readonly number[]): number[] {
  const inv = new Array<number>(p.length);
  p.forEach((from, to) => {
    inv[from] = to;
  });
  return inv;
}

/** [K * B]: the per-row times t [B], once for each of K copies. */
function repeatTimes(t: Float64Array, K: number): Float64Array {
  const out = new Float64Array(K * t.length);
  for (let k = 0; k < K; k++) out.set(t, k * t.length);
  return out;
}

/** The classifier `base` averaged over the copies moved by `perms` ([K][L] position maps). */
export function symmetricClassifier(
  base: Classifier,
  perms: readonly (readonly number[])[],
): Classifier {
  const K = perms.length;
  if (K === 1 && perms[0]!.every((i, k) => i === k)) return base;
  const L = perms[0]?.length ?? 0;
  checkPermutations(perms, L);
  const forward = perms.flat(); // [K * L]
  const back = perms.flatMap(inverse); // [K * L]
  return (y, t, committed) =>
    noGrad(() => {
      const B = y.size(0);
      if (y.size(1) !== L)
        throw new Error(`the copies permute ${L} positions, the state has ${y.size(1)}`);
      const fwd = tensor(forward, [K, L], 'int64'); // [K, L]
      const bwd = tensor(back, [K, L], 'int64'); // [K, L]
      const copies = (x: Tensor) =>
        cat(
          Array.from({ length: K }, (_, k) => x.indexSelect(1, fwd.select(0, k))),
          0,
        ); // [K * B, L, ...]
      const times = typeof t === 'number' ? t : repeatTimes(t, K); // [K * B] per-row times
      const logits = base(copies(y), times, copies(committed)); // [K * B, L, V]
      const logp = logits.to('float64').logSoftmax(-1).split(B, 0); // K of [B, L, V]
      const moved = logp.map((lp, k) => lp.indexSelect(1, bwd.select(0, k))); // K of [B, L, V]
      return cat(
        moved.map((m) => m.unsqueeze(0)),
        0,
      )
        .logsumexp([0])
        .sub(Math.log(K)); // [B, L, V]
    });
}
