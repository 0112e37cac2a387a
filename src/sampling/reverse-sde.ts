// The reverse-SDE move of the active sites, Alg. 2's drift line (alg:sjd-sampling,
// app:sampling): one Euler-Maruyama step of the reverse VP SDE from forward time t to s < t,
//   y <- y + (beta y / 2 + beta s_theta) dt + sqrt(beta dt) xi,   dt = t - s, xi ~ N(0, I),
// with the classifier-induced score s_theta (app:classifier-score) read from the tempered
// posterior softmax(logits / temperature). Committed sites do not move. The SJD predictor, the
// confidence policy's second pass and the adaptive sampler take this step; the adaptive one
// with per-row times (each board from its own t to its own s), done as the same step on each
// group of rows that share (t, s).
import { classifierScore, type MixtureTerms, mixtureTerms } from '../process/index.js';
import { cat, type Generator, type Tensor, tensor, where } from '../torch/index.js';
import type { SamplerState, StepContext, Time } from './types.js';

/** The classifier posterior at the context's temperature: logits [..., K] -> probs float64. */
export function temperedProbs(logits: Tensor, temperature: number): Tensor {
  return logits.to('float64').div(temperature).softmax(-1);
}

/**
 * y [B, L, d] after the reverse-SDE step from t to s, for the classifier's logits [B, L, K] on
 * `state`; at eta < 1 the DHM quadrature terms of (y, t) are computed unless the caller passes
 * its own (`mixture`, one time for the batch). Draws xi from `gen`.
 */
export function reverseSdeMove(
  ctx: StepContext,
  state: SamplerState,
  logits: Tensor,
  t: Time,
  s: Time,
  gen: Generator,
  mixture?: MixtureTerms,
): Tensor {
  if (typeof t === 'number' && typeof s === 'number')
    return moveAt(ctx, state, logits, t, s, gen, mixture);
  const B = state.y.size(0);
  const at = (x: Time) => (typeof x === 'number' ? new Float64Array(B).fill(x) : x);
  return movePerRow(ctx, state, logits, at(t), at(s), gen);
}

/**
 * Per-row times t, s [B]: the step on each group of rows sharing (t, s), in order of first
 * appearance (so the draws are reproducible); rows with no active site or no time to move
 * (s >= t) stay.
 */
function movePerRow(
  ctx: StepContext,
  state: SamplerState,
  logits: Tensor,
  t: Float64Array,
  s: Float64Array,
  gen: Generator,
): Tensor {
  const B = state.y.size(0);
  if (t.length !== B || s.length !== B)
    throw new Error(
      `per-row times must have one entry per row (${B}), got ${t.length}, ${s.length}`,
    );
  const live = state.committed.logicalNot().any(-1).toArray(); // [B]
  const groups = new Map<string, number[]>();
  const still: number[] = [];
  for (let b = 0; b < B; b++) {
    if (!live[b] || !(t[b]! > s[b]!)) still.push(b);
    else {
      const key = `${t[b]} ${s[b]}`;
      const rows = groups.get(key);
      if (rows) rows.push(b);
      else groups.set(key, [b]);
    }
  }
  const parts: Tensor[] = [];
  const order: number[] = [];
  for (const rows of groups.values()) {
    const [tb, sb] = [t[rows[0]!]!, s[rows[0]!]!];
    const idx = tensor(rows, [rows.length], 'int64');
    const sub: SamplerState = {
      y: state.y.indexSelect(0, idx), // [n, L, d]
      committed: state.committed.indexSelect(0, idx),
      tokens: state.tokens.indexSelect(0, idx),
    };
    parts.push(moveAt(ctx, sub, logits.indexSelect(0, idx), tb, sb, gen));
    order.push(...rows);
  }
  if (parts.length === 0) return state.y;
  if (still.length > 0) {
    parts.push(state.y.indexSelect(0, tensor(still, [still.length], 'int64')));
    order.push(...still);
  }
  const back = new Array<number>(B);
  order.forEach((b, k) => {
    back[b] = k;
  });
  return cat(parts, 0).indexSelect(0, tensor(back, [B], 'int64')); // [B, L, d] in row order
}

/** The step with one (t, s) for every row of `state`. */
function moveAt(
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
  // At eta < 1 the score needs the quadrature's time posterior at (y, t): reuse the caller's.
  const terms =
    mixture ??
    (proc.closedForm
      ? undefined
      : mixtureTerms(proc, proc.anchorDistances(y, ctx.anchors, t), t, ctx.anchors.size(1)));
  const score = classifierScore(
    proc,
    y,
    t,
    probs,
    ctx.anchors,
    state.committed,
    state.tokens,
    terms,
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
