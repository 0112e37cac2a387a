// The exact denoising classifier of a point-mass data law (sec:classifier, eq:denoising-posterior):
// when p0 is the single sequence x* = (a(1..L)), the posterior P(x0 = x* | y, t) is 1 whatever the
// state, so the Bayes-optimal P_theta(a | y, t) puts all its mass on a(i) at site i: constant
// logits. Driving a sampler with it simulates the reverse process exactly (the plug-in of
// eq:plugin-estimators is then the true reverse intensity), which the paper's figures draw.
import type { Classifier } from '../sampling/index.js';
import { tensor } from '../torch/index.js';

/** The logit of a token the law never holds: finite, so log-probabilities stay finite, and no softmax gives it mass. */
const LOG_ZERO = -1e9;

/** P_theta(. | y, t) of p0 = delta at `tokens` [L] over K anchors: logits [B, L, K], float32. */
export function pointMassClassifier(tokens: readonly number[], K: number): Classifier {
  const L = tokens.length;
  for (const a of tokens)
    if (!(Number.isInteger(a) && a >= 0 && a < K))
      throw new Error(`a point mass's tokens must lie in 0..${K - 1}, got ${a}`);
  const logits = Float32Array.from({ length: L * K }, (_, k) =>
    tokens[Math.floor(k / K)] === k % K ? 0 : LOG_ZERO,
  ); // [L, K]
  return (y) => {
    const [B, Ly] = y.shape as [number, number, number];
    if (Ly !== L) throw new Error(`the point mass has ${L} sites, the state ${Ly}`);
    return tensor(logits, [1, L, K], 'float32').expand([B, L, K]).contiguous(); // [B, L, K]
  };
}
