// The fixed sinusoidal value embedding of images (app:cifar10-imagenet, eq:embed-the-blur):
// E(v) = [sin(2 pi f v / P), cos(2 pi f v / P)]_{f=1..F}, norm sqrt(F). Values are token
// indices 0..K-1 (P = K - 1), or blended (non-integer) values.
import { arange, cat, type Tensor } from '../torch/index.js';

/** v [...] (float) -> [..., 2F] */
export function valueEmbedding(v: Tensor, F = 4, P = 255): Tensor {
  const f = arange(1, F + 1, 1, v.dtype === 'float32' ? 'float32' : 'float64'); // [F]
  const phase = v
    .unsqueeze(-1)
    .mul(f)
    .mul((2 * Math.PI) / P); // [..., F]
  return cat([phase.sin(), phase.cos()], -1);
}

/** The anchors of a K-value vocabulary: E(0..K-1) -> [K, 2F] float64. */
export function valueAnchors(K: number, F = 4): Tensor {
  return valueEmbedding(arange(0, K, 1, 'float64'), F, K - 1);
}
