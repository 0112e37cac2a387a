// The SJD negative ELBO at eta = 1 (prop:elbo-eta1, app:e2e-hazard) without its score term, as the
// paper trains it: L_CE + L_RB for hazards lambda_t(a) = beta(t) w(a), S_a(t) = exp(-w(a) B(t)),
//   L_CE = int sum_a (-m'_t(a)) E_{Y ~ q_t(.|a)} [-log P_theta(a | Y, t)] dt,
//          -m'_t(a) = p0(a) beta(t) w(a) S_a(t)                                    (eq:lce)
//   L_RB = int E_{Y ~ p_t^ac} [sum_a lhat_t(a) (P_theta(a | Y, t) - p_t(a | Y))] dt,
//          lhat_t(a) = beta(t) w(a) S_a(t) / (1 - S_a(t))                           (eq:lrb)
// At eta = 1 the off-anchor law q_t(.|a) is the VP kernel N(alpha(t) E(a), sigma^2(t)), free of w.
// One Monte Carlo estimate per corrupted batch (Alg. 1's draw): t ~ U(0, T) per row, and per
// site its clean token a, whether it is unstuck (probability 1 - S_a(t)) and then Y. An unstuck
// site contributes, per unit of time,
//   CE:  beta w_ce(a) S_a^ce(t) / (1 - S_a(t)) * (-log P_theta(a | Y))   (importance weight 1 / (1 - S))
//   RB:  sum_b lhat_t(b) P_theta(b | Y) - lhat_t(a)          (the tower identity replaces p_t(.|Y)
//                                                             by the site's own a)
// each multiplied by rho = (1 - S_a(t)) / stop_gradient(1 - S_a(t)): 1 in value, it makes the
// pathwise gradient in w exact for the site's own unstick event, whose probability depends on w
// (d/dw E[1{U} h] = E[1{U} d(rho h)/dw]). One backward pass then gives the exact gradient in w
// of the per-position bound (the paper's reparametrised gradient); the other sites' stuck events
// (the context the classifier reads) are held as drawn: an indicator has no pathwise derivative.
// w_ce = w (the bounded, cross-entropy-driven variant) or 1 (the uniform-CE variant, whose
// w-signal is L_RB's alone). Means per position (sum over sites / (B L)), times T: the Monte Carlo
// integral over (0, T) in nats a token. At w = 1, L_RB is 0 identically (lhat is anchor-free), and
// so at any w the same for every token and held fixed (no gradient): its [B, L, K] terms are then
// not formed, which for a BPE vocabulary are most of the bound's cost. In float64
// (docs/design.md §4), the logits read once as log-softmax.
import { type Tensor, tensor, where, zeros } from '../torch/index.js';
import type { Hazard } from './hazard.js';

export interface ElboInput {
  logits: Tensor; // [B, L, K] the classifier's
  x0: Tensor; // [B, L] int64 clean tokens
  unstuck: Tensor; // [B, L] bool: off their anchors (the loss mask of Alg. 1's draw)
  t: Float64Array; // [B] times in (0, T)
  T: number;
  hazard: Hazard; // beta(t) and B(t)
  w: Tensor; // [K] float64 hazard weights (differentiable when learned)
  /** the weight of L_CE: 'w' (the bound as written) or 'uniform' (w = 1 inside it) */
  ceWeight?: 'w' | 'uniform';
}

export interface ElboTerms {
  ce: Tensor; // [] float64
  rb: Tensor; // [] float64
}

export function elboTerms(o: ElboInput): ElboTerms {
  const [B, L, K] = o.logits.shape as [number, number, number];
  if (o.t.length !== B) throw new Error(`elbo: ${o.t.length} times for a batch of ${B}`);
  if (o.w.shape.join() !== String(K))
    throw new Error(`elbo: w has shape [${o.w.shape}], not [${K}]`);
  const h = o.hazard;
  const dev = o.logits.device;
  const row = (f: (t: number) => number) =>
    tensor(Float64Array.from(o.t, f), [B, 1, 1], 'float64').to('float64', dev); // [B, 1, 1]
  const beta = row((t) => h.rate(t));
  const Lam = row((t) => h.cumulative(t)); // B(t)
  const w = o.w.to('float64').reshape([1, 1, K]); // [1, 1, K]
  const wLam = w.mul(Lam); // [B, 1, K]
  const S = wLam.neg().exp(); // S_b(t)
  const U = wLam.neg().expm1().neg(); // 1 - S_b(t), stable near t = 0
  const lhat = beta.mul(w).mul(S).div(U); // [B, 1, K]
  const logP = o.logits.to('float64').logSoftmax(-1); // [B, L, K]
  const a = o.x0.unsqueeze(-1); // [B, L, 1]
  const pick = (x: Tensor) => x.expand([B, L, K]).gather(-1, a).squeeze(-1); // [B, L]
  const Ua = pick(U); // 1 - S_a(t) at each site's own token
  const rho = Ua.div(Ua.detach());
  const ceW =
    o.ceWeight === 'uniform'
      ? beta.mul(Lam.neg().exp()).reshape([B, 1]).expand([B, L]) // beta S^(w=1)
      : pick(beta.mul(w).mul(S)); // beta w(a) S_a(t)
  const ce = ceW.div(Ua.detach()).mul(logP.gather(-1, a).squeeze(-1).neg()); // [B, L]
  const scale = o.T / (B * L);
  const on = (x: Tensor) => where(o.unstuck, x, 0).sum().mul(scale);
  if (fixedAndUniform(o.w)) return { ce: on(ce), rb: zeros([], 'float64', dev) };
  const rb = logP.exp().mul(lhat).sum([-1]).sub(pick(lhat)).mul(rho); // [B, L]
  return { ce: on(ce), rb: on(rb) };
}

/** w [K] the same for every token and not learned: sum_b P(b) lhat(b) = lhat(a), L_RB = 0. */
function fixedAndUniform(w: Tensor): boolean {
  if (w.requiresGrad) return false;
  const v = w.toArray() as number[];
  return v.every((x) => x === v[0]);
}
