// The reverse-SDE move of the active sites, Alg. 2's drift line (alg:sjd-sampling,
// app:sampling): one Euler-Maruyama step of the reverse VP SDE from forward time t to s < t,
//   y <- y + (beta y / 2 + beta s_theta) dt + sqrt(beta dt) xi,   dt = t - s, xi ~ N(0, I),
// with the classifier-induced score s_theta (app:classifier-score) read from the tempered
// posterior softmax(logits / temperature). Committed sites do not move. The SJD predictor, the
// confidence policy's second pass and the adaptive sampler take this step; the adaptive one
// with per-row times (each board from its own t to its own s) in substeps from one classifier
// pass, composed in closed form at eta = 1 (reverseSdeMoveAlong, eulerChain).

import {
  blendedPosteriorMean,
  classifierScore,
  type MixtureTerms,
  mixtureTerms,
  type SJDProcess,
  VARIANCE_FLOOR,
} from '../process/index.js';
import { cat, type Tensor, tensor, where } from '../torch/index.js';
import { maxOf, pushAll } from '../util/fold.js';
import { normalAt } from './site-draws.js';
import type { StepRandom } from './step-random.js';
import type { SamplerState, StepContext, Time } from './types.js';

/**
 * The classifier posterior at the context's temperature: logits [..., K] -> probs, float64 (what
 * a categorical draw or a commit reads), or float32 where only a posterior mean is formed from
 * them (the score's W m at eta = 1: no hazard ratio, no quadrature; the network is float32).
 */
export function temperedProbs(
  logits: Tensor,
  temperature: number,
  dtype: 'float64' | 'float32' = 'float64',
): Tensor {
  const l = logits.to(dtype);
  return softmaxLast(temperature === 1 ? l : l.div(temperature));
}

/**
 * Below this many values in the last dimension, softmax is formed as exp(x - max) / sum:
 * libtorch's kernel costs about 0.1 us a row there (1,296 rows, float64, one thread: 152 us
 * against 60 us at 9 values, 188 against 110 at 27; at 256 its own is faster, 664 against 690).
 */
const SHORT_SOFTMAX = 32;

/** softmax over the last dimension of x [..., K]. */
function softmaxLast(x: Tensor): Tensor {
  if (x.size(-1) >= SHORT_SOFTMAX) return x.softmax(-1);
  const e = x.sub(x.amax(-1, true)).exp(); // [..., K]
  return e.div(e.sum(-1, true));
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
  gen: StepRandom,
  mixture?: MixtureTerms,
): Tensor {
  if (typeof t === 'number' && typeof s === 'number')
    return moveAt(ctx, state, logits, t, s, gen, mixture);
  const B = state.y.size(0);
  const at = (x: Time) => (typeof x === 'number' ? new Float64Array(B).fill(x) : x);
  const [tb, sb] = [at(t), at(s)];
  if (tb.length !== B || sb.length !== B)
    throw new Error(
      `per-row times must have one entry per row (${B}), got ${tb.length}, ${sb.length}`,
    );
  return reverseSdeMoveAlong(
    ctx,
    state,
    logits,
    Array.from(tb, (x, b) => [x, sb[b]!]),
    gen,
  );
}

/**
 * Several reverse-SDE steps from one classifier pass (the adaptive sampler's substeps): row b
 * moves along paths[b] (forward times, decreasing: substep k from paths[b][k] to
 * paths[b][k + 1]); a row with no active site stays. At eta = 1 the posterior mean W m does not
 * depend on y and each substep is affine in y (eulerChain): a row's whole path is one Gaussian
 * step of the same law, one update of every row with its own coefficients and one draw of
 * noise. At eta < 1 (the score depends on y through the quadrature) the substeps are taken one
 * by one, each on the groups of rows sharing its (t, s), in order of first appearance.
 */
export function reverseSdeMoveAlong(
  ctx: StepContext,
  state: SamplerState,
  logits: Tensor,
  paths: number[][],
  gen: StepRandom,
  probs?: Tensor,
): Tensor {
  const proc = ctx.process;
  const y = state.y; // [B, L, d]
  const B = y.size(0);
  const live = state.committed.logicalNot().any(-1).toArray(); // [B]
  if (!proc.closedForm) return substepsOneByOne(ctx, state, logits, paths, live, gen);
  const chains = paths.map((p, b) => (live[b] ? eulerChain(proc, p) : null));
  if (chains.every((c) => c === null || c.steps === 0)) return y;
  const perRow = (f: (c: EulerChain) => number, none: number) =>
    tensor(
      chains.map((c) => (c && c.steps > 0 ? f(c) : none)),
      [B, 1, 1],
      y.dtype as 'float32' | 'float64',
    ); // [B, 1, 1] in the state's dtype (formed in float64)
  const stays = state.committed.unsqueeze(-1).logicalOr(perRow(() => 0, 1).gt(0)); // [B, L, 1]
  const coefficients = {
    a: perRow((c) => c.a, 1),
    b: perRow((c) => c.b, 0),
    c: perRow((c) => c.c, 0),
  };
  return chainMove(ctx, state, logits, coefficients, stays, gen, probs); // [B, L, d]
}

/** Euler-Maruyama substeps along a path, composed: y_K = a y_0 + b W m + c xi. */
export interface EulerChain {
  a: number;
  b: number;
  c: number;
  steps: number; // substeps with t > s
}

/**
 * The substeps of Alg. 2's drift line at eta = 1 along `path` composed in closed form. With the
 * score -(y - alpha W m) / v (v = max(sigma^2, floor)) and W m fixed, the substep from t to s
 * (beta = beta(t), dt = t - s) is
 *   y' = (1 + beta dt / 2 - beta dt / v) y + (alpha beta dt / v) W m + sqrt(beta dt) xi,
 * so the chain is y_K = a y_0 + b W m + c xi with a = prod a_k, b = sum_k b_k prod_{j>k} a_j and
 * c^2 = sum_k c_k^2 prod_{j>k} a_j^2: exactly the law of the substeps taken one by one.
 */
export function eulerChain(proc: SJDProcess, path: number[]): EulerChain {
  let [a, b, c2, steps] = [1, 0, 0, 0];
  for (let k = 0; k + 1 < path.length; k++) {
    const [t, s] = [path[k]!, path[k + 1]!];
    if (!(t > s)) continue;
    const beta = proc.vp.beta(t);
    const dt = t - s;
    const v = Math.max(proc.vp.sigma2(t), VARIANCE_FLOOR);
    const ak = 1 + (beta * dt) / 2 - (beta * dt) / v;
    a *= ak;
    b = b * ak + (proc.vp.alpha(t) * beta * dt) / v;
    c2 = c2 * ak * ak + beta * dt;
    steps++;
  }
  return { a, b, c: Math.sqrt(c2), steps };
}

/** At eta < 1: each substep on each group of rows sharing its (t, s), the rest staying. */
function substepsOneByOne(
  ctx: StepContext,
  state: SamplerState,
  logits: Tensor,
  paths: number[][],
  live: ArrayLike<number | boolean>,
  gen: StepRandom,
): Tensor {
  let y = state.y;
  const B = y.size(0);
  const rows = (r: number[]) => tensor(r, [r.length], 'int64');
  const substeps = maxOf(
    paths.map((p) => p.length - 1),
    0,
  );
  for (let k = 0; k < substeps; k++) {
    const from = paths.map((p) => p[Math.min(k, p.length - 1)]!);
    const to = paths.map((p) => p[Math.min(k + 1, p.length - 1)]!);
    const groups = new Map<string, number[]>();
    const still: number[] = [];
    for (let b = 0; b < B; b++) {
      if (!live[b] || !(from[b]! > to[b]!)) still.push(b);
      else {
        const key = `${from[b]} ${to[b]}`;
        const g = groups.get(key);
        if (g) g.push(b);
        else groups.set(key, [b]);
      }
    }
    if (groups.size === 0) continue;
    const parts: Tensor[] = [];
    const order: number[] = [];
    for (const g of groups.values()) {
      const idx = rows(g);
      const sub: SamplerState = {
        y: y.indexSelect(0, idx), // [n, L, d]
        committed: state.committed.indexSelect(0, idx),
        tokens: state.tokens.indexSelect(0, idx),
      };
      parts.push(moveAt(ctx, sub, logits.indexSelect(0, idx), from[g[0]!]!, to[g[0]!]!, gen));
      pushAll(order, g);
    }
    if (still.length > 0) {
      parts.push(y.indexSelect(0, rows(still)));
      pushAll(order, still);
    }
    const back = new Array<number>(B);
    order.forEach((b, j) => {
      back[b] = j;
    });
    y = cat(parts, 0).indexSelect(0, rows(back)); // [B, L, d] in row order
  }
  return y;
}

/**
 * y [B, L, d] after the composed chain y' = a y + b W m + c xi (eulerChain) at eta = 1, with W m
 * from the classifier's logits [B, L, K] on `state` (formed in float32; from `probs`, the step's
 * own tempered posterior of those logits, where the caller has it) and xi at the active sites;
 * a, b, c one number for the batch or per row [B, 1, 1]; the sites of `stays` stay.
 */
function chainMove(
  ctx: StepContext,
  state: SamplerState,
  logits: Tensor,
  k: { a: number | Tensor; b: number | Tensor; c: number | Tensor },
  stays: Tensor,
  gen: StepRandom,
  probs?: Tensor,
): Tensor {
  const y = state.y; // [B, L, d]
  const p = probs ? probs.to('float32') : temperedProbs(logits, ctx.temperature, 'float32'); // [B, L, K]
  const mean = blendedPosteriorMean(ctx.process, p, ctx.anchors, state.committed, state.tokens); // [B, L, d]
  const xi = normalAt(state.committed.logicalNot(), y.size(-1), gen); // [B, L, d]
  return where(stays, y, y.mul(k.a).add_(mean.mul(k.b)).add_(xi.mul(k.c))); // [B, L, d]
}

/** The step with one (t, s) for every row of `state`. */
function moveAt(
  ctx: StepContext,
  state: SamplerState,
  logits: Tensor,
  t: number,
  s: number,
  gen: StepRandom,
  mixture?: MixtureTerms,
): Tensor {
  const proc = ctx.process;
  const y = state.y; // [B, L, d]
  // At eta = 1 one substep is the chain of one: y' = a y + b W m + c xi.
  if (proc.closedForm)
    return chainMove(
      ctx,
      state,
      logits,
      eulerChain(proc, [t, s]),
      state.committed.unsqueeze(-1),
      gen,
    );
  // At eta < 1 the score needs the quadrature's time posterior at (y, t): reuse the caller's.
  const probs = temperedProbs(logits, ctx.temperature); // [B, L, K]
  const terms =
    mixture ?? mixtureTerms(proc, proc.anchorDistances(y, ctx.anchors, t), t, ctx.anchors.size(1));
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
  const [beta, dt] = [proc.vp.beta(t), t - s];
  // y + (beta y / 2 + beta score) dt + sqrt(beta dt) xi, as three products
  const moved = y
    .mul(1 + 0.5 * beta * dt)
    .add(score.mul(beta * dt))
    .add(normalAt(state.committed.logicalNot(), y.size(-1), gen).mul(Math.sqrt(beta * dt)));
  return where(state.committed.unsqueeze(-1), y, moved);
}
