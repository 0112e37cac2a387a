// What a watched sampling step shows (the trajectory, the web page's stream), shared by the grid
// driver (driver.ts) and the refilled batch (loop.ts): the state's commitments, tokens and
// |y| per site, and what a classifier pass said of each site (its top token and that token's
// tempered probability); and the state a run starts from, conditioned sites on their anchors.
import { embedding, type Tensor, tidy, where } from '../torch/index.js';
import { temperedProbs } from './reverse-sde.js';
import { freshSearch } from './state.js';
import type { SamplerState } from './types.js';

/** The state as a step shows it: committed [B * L], tokens (-1 where not committed), |y_i|. */
export function stateView(s: SamplerState): {
  committed: Uint8Array;
  tokens: number[];
  yNorm: Float32Array;
} {
  return tidy(() => {
    const committed = s.committed.to('uint8').data() as Uint8Array;
    const tokens = s.tokens.toArray().map((v, k) => (committed[k] ? v : -1));
    const yNorm = Float32Array.from(s.y.norm(2, [-1]).toArray());
    return { committed, tokens, yNorm };
  });
}

/**
 * What a classifier pass said of its rows (logits [n, L, K]): `into(r, argmax, confidence)` is
 * given row r's top tokens [L] and their tempered probabilities [L].
 */
export function readPass(
  logits: Tensor,
  temperature: number,
  into: (r: number, argmax: number[], confidence: number[]) => void,
): void {
  tidy(() => {
    const [n, L] = logits.shape as [number, number];
    const [p, a] = temperedProbs(logits, temperature).max(-1); // [n, L]
    const [pa, aa] = [p.toArray(), a.toArray()];
    for (let r = 0; r < n; r++) into(r, aa.slice(r * L, (r + 1) * L), pa.slice(r * L, (r + 1) * L));
  });
}

/**
 * A run's state at t = T from its prior y [B, L, d]: the committed sites [B, L] bool on the
 * anchors E [K, d] of their tokens [B, L] int64, and, for a searching sampler, a fresh record of
 * its commits.
 */
export function anchoredState(
  prior: Tensor,
  committed: Tensor,
  tokens: Tensor,
  E: Tensor,
  search: boolean,
): SamplerState {
  const K = E.size(0);
  const y = where(committed.unsqueeze(-1), embedding(E, tokens.clamp(0, K - 1)), prior);
  return search
    ? { y, committed, tokens, search: freshSearch(committed, K) }
    : { y, committed, tokens };
}
