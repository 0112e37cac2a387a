// The fixed sinusoidal value embedding of images (app:cifar10-imagenet, eq:embed-the-blur):
// E(v) = [sin(2 pi f v / P), cos(2 pi f v / P)]_{f=1..F}, norm sqrt(F). Values are token
// indices 0..K-1, or blended (non-integer) values.
//
// Deviation from the paper: the paper's P = 255, i.e. P = K - 1, makes E periodic with period
// K - 1 in v, so E(0) = E(K - 1): black and white would be one anchor. We use
// P = 2 (K - 1): the lowest frequency then spans half a turn over the value range, on which
// cosine is one-to-one, so every level keeps its own anchor, at least 2 sin(pi / 2P') apart
// with P' = K - 1 (the f = 1 component alone), and the embedding of a blend stays smooth.
import { arange, cat, embedding, type Tensor } from '../torch/index.js';

/** The period P of E for a K-level vocabulary: 2 (K - 1), so that E(0) != E(K - 1). */
export const valuePeriod = (K: number): number => 2 * Math.max(K - 1, 1);

/** v [...] (float) -> [..., 2F], for a K-level vocabulary. */
export function valueEmbedding(v: Tensor, F: number, K: number): Tensor {
  const f = arange(1, F + 1, 1, v.dtype === 'float32' ? 'float32' : 'float64'); // [F]
  const phase = v
    .unsqueeze(-1)
    .mul(f)
    .mul((2 * Math.PI) / valuePeriod(K)); // [..., F]
  return cat([phase.sin(), phase.cos()], -1);
}

/**
 * A (blended, non-integer) value embedded by the anchor table itself (for learned,
 * CDCD-normalised anchors with the value-space blur): E(v) = (1 - f) E[floor v] + f E[floor v + 1],
 * f = v - floor v, the piecewise-linear path through the anchors in value order, so integer
 * values land exactly on their anchors. v [...] (float, clamped to [0, K - 1]), anchors [K, d]
 * -> [..., d] in the anchors' dtype (differentiable in the anchors).
 */
export function interpolatedEmbedding(v: Tensor, anchors: Tensor): Tensor {
  const K = anchors.size(0);
  const x = v.to('float64').clamp(0, K - 1);
  const lo = x.floor().clamp(0, Math.max(K - 2, 0)); // [...] the lower level (K - 2 at the top)
  const f = x.sub(lo).unsqueeze(-1).to(anchors.dtype); // [..., 1]
  const i = lo.to('int64');
  const a = embedding(anchors, i); // [..., d]
  const b = embedding(anchors, i.add(1).clamp(0, K - 1)); // [..., d]
  return a.add(b.sub(a).mul(f));
}

/** The anchors of a K-value vocabulary: E(0..K-1) -> [K, 2F] float64. */
export function valueAnchors(K: number, F = 4): Tensor {
  return valueEmbedding(arange(0, K, 1, 'float64'), F, K);
}
