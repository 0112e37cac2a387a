// The reverse-SDE move of the active sites, Alg. 2's drift line (alg:sjd-sampling,
// app:sampling): one Euler-Maruyama step of the reverse VP SDE from forward time t to s < t,
//   y <- y + (beta y / 2 + beta s_theta) dt + sqrt(beta dt) xi,   dt = t - s, xi ~ N(0, I),
// with the classifier-induced score s_theta (app:classifier-score) read from the tempered
// posterior softmax(logits / temperature). Committed sites do not move. Both the SJD predictor
// and the confidence policy's second pass take this step.
import { classifierScore, type MixtureTerms } from '../process/index.js';
import { type Generator, type Tensor, where } from '../torch/index.js';
import type { SamplerState, StepContext } from './types.js';

/** The classifier posterior at the context's temperature: logits [..., K] -> probs float64. */
export function temperedProbs(logits: Tensor, temperature: number): Tensor {
  return logits.to('float64').div(temperature).softmax(-1);
}

/**
 * y [B, L, d] after the reverse-SDE step from t to s, for the classifier's logits [B, L, K] on
 * `state`; `mixture` (the DHM quadrature terms) is needed at eta < 1. Draws xi from `gen`.
 */
export function reverseSdeMove(
  ctx: StepContext,
  state: SamplerState,
  logits: Tensor,
  t: number,
  s: number,
  gen: Generator,
  mixture?: MixtureTerms,
): Tensor {
  const proc = ctx.process;
  const y = state.y; // [B, L, d]
  const probs = temperedProbs(logits, ctx.temperature); // [B, L, K]
  const score = classifierScore(
    proc,
    y,
    t,
    probs,
    ctx.anchors,
    state.committed,
    state.tokens,
    mixture,
  ); // [B, L, d]
  const beta = proc.vp.beta(t);
  const dt = t - s;
  const xi = gen.randn(y.shape, 'float64'); // [B, L, d]
  const moved = y
    .add(
      y
        .mul(0.5 * beta)
        .add(score.mul(beta))
        .mul(dt),
    )
    .add(xi.mul(Math.sqrt(beta * dt)));
  return where(state.committed.unsqueeze(-1), y, moved);
}
