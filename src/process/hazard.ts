// Forward hazards (sec:sim-free): lambda_t(a) = beta(t) w(a) with elementary beta, so the
// survival S_a(t) = exp(-w(a) Lambda(t)) is a single exponential and the unstick time is drawn
// by inverse CDF truncated to (0, t). Singular schedules (S(T) = 0) switch to a constant-hazard
// tail past T(1 - eps) (docs/design.md §5). All scalars in float64; Lambda^{-1} also elementwise on
// float64 tensors, so Alg. 1 draws a minibatch's unstick times on the model's device.
import { type Tensor, where, zerosLike } from '../torch/index.js';

export interface Hazard {
  readonly name: string;
  /** beta(t), the anchor-agnostic rate */
  rate(t: number): number;
  /** Lambda(t) = int_0^t beta(s) ds (Infinity for t > 0 when the hazard is instant) */
  cumulative(t: number): number;
  /** the t >= 0 with Lambda(t) = c */
  cumulativeInverse(c: number): number;
  /** cumulativeInverse elementwise: c float64 tensor [...] -> [...] */
  cumulativeInverseTensor(c: Tensor): Tensor;
  /** true when every anchor unsticks at time 0+ (S(t) = 0 for t > 0): the no-jump continuous limit */
  readonly instant?: boolean;
}

/** log S_a(t) = -w Lambda(t) */
export function logSurvival(h: Hazard, t: number, w = 1): number {
  if (t <= 0) return 0;
  if (h.instant) return Number.NEGATIVE_INFINITY;
  return -w * h.cumulative(t);
}

export function survival(h: Hazard, t: number, w = 1): number {
  return Math.exp(logSurvival(h, t, w));
}

/**
 * The exact probability that a site unstuck at t was still stuck at s < t (forward time):
 * P(tau > s | tau <= t) = (S(s) - S(t)) / (1 - S(t)), MDLM's unmasking probability from t to s;
 * 1 at s = 0, 0 where nothing is unstuck yet at t. Stable near S(t) = 1 (expm1).
 */
export function commitProbability(h: Hazard, t: number, s: number, w = 1): number {
  if (!(s < t)) return 0;
  const logSt = logSurvival(h, t, w);
  const unstuck = -Math.expm1(logSt); // 1 - S(t)
  if (!(unstuck > 0)) return 0;
  const logSs = logSurvival(h, s, w);
  return Math.min(1, Math.max(0, -Math.exp(logSs) * Math.expm1(logSt - logSs)) / unstuck);
}

/** log lambda_t(a) = log(w beta(t)) */
export function logRate(h: Hazard, t: number, w = 1): number {
  return Math.log(w * h.rate(t));
}

/**
 * Unstick time tau in (0, t) given that the anchor unstuck by t, by inverse CDF of the
 * density lambda_tau S(tau) / (1 - S(t)) at the uniform u in [0, 1).
 */
export function sampleUnstickTime(h: Hazard, t: number, u: number, w = 1): number {
  if (h.instant) return 0;
  const fracUnstuck = -Math.expm1(-w * h.cumulative(t)); // 1 - S_a(t)
  const c = -Math.log1p(-u * fracUnstuck) / w; // Lambda(tau)
  return Math.min(t, h.cumulativeInverse(c));
}

/** Wraps a schedule whose Lambda diverges at T with a constant-hazard tail past T(1 - eps). */
function withTail(name: string, T: number, eps: number, core: Omit<Hazard, 'name'>): Hazard {
  const tc = T * (1 - eps);
  const rc = core.rate(tc);
  const Lc = core.cumulative(tc);
  return {
    name,
    rate: (t) => (t <= tc ? core.rate(t) : rc),
    cumulative: (t) => (t <= tc ? core.cumulative(t) : Lc + rc * (t - tc)),
    cumulativeInverse: (c) => (c <= Lc ? core.cumulativeInverse(c) : tc + (c - Lc) / rc),
    cumulativeInverseTensor: (c) =>
      where(c.le(Lc), core.cumulativeInverseTensor(c.clamp(null, Lc)), c.sub(Lc).div(rc).add(tc)),
  };
}

/** S(t) = 1 - (t/T)^p ("polynomial-alpha"; p = 1 is MDLM's log-linear masking schedule). */
export function polynomialAlpha(T = 1, p = 1, eps = 1e-5): Hazard {
  if (!(p > 0)) throw new Error(`polynomial-alpha hazard: p must be > 0, got ${p}`);
  return withTail(`polynomial-alpha(p=${p})`, T, eps, {
    rate: (t) => (p * (t / T) ** (p - 1)) / T / (1 - (t / T) ** p),
    cumulative: (t) => -Math.log1p(-((t / T) ** p)),
    cumulativeInverse: (c) => T * (-Math.expm1(-c)) ** (1 / p),
    cumulativeInverseTensor: (c) =>
      c
        .neg()
        .expm1()
        .neg()
        .pow(1 / p)
        .mul(T),
  });
}

/** MDLM's log-linear schedule with floor eps: S(t) = 1 - (1 - eps) t/T, never singular. */
export function logLinear(T = 1, eps = 1e-3): Hazard {
  const k = (1 - eps) / T;
  return {
    name: `log-linear(eps=${eps})`,
    rate: (t) => k / (1 - k * t),
    cumulative: (t) => -Math.log1p(-k * t),
    cumulativeInverse: (c) => -Math.expm1(-c) / k,
    cumulativeInverseTensor: (c) => c.neg().expm1().div(-k),
  };
}

/** S(t) = cos(pi t / 2T), with a constant-hazard tail past T(1 - eps). */
export function cosine(T = 1, eps = 1e-5): Hazard {
  const w = Math.PI / (2 * T);
  return withTail('cosine', T, eps, {
    rate: (t) => w * Math.tan(w * t),
    cumulative: (t) => -Math.log(Math.cos(w * t)),
    // acos(x) = atan2(sqrt(1 - x^2), x) with 1 - x^2 = -expm1(-2c): accurate near c = 0
    cumulativeInverse: (c) => Math.atan2(Math.sqrt(-Math.expm1(-2 * c)), Math.exp(-c)) / w,
    cumulativeInverseTensor: (c) => c.mul(-2).expm1().neg().sqrt().atan2(c.neg().exp()).div(w),
  });
}

/** lambda(t) = c: S(t) = exp(-c t). c = 0 never unsticks. */
export function constant(c: number): Hazard {
  if (!(c >= 0)) throw new Error(`constant hazard: rate must be >= 0, got ${c}`);
  return {
    name: `constant(${c})`,
    rate: () => c,
    cumulative: (t) => c * t,
    cumulativeInverse: (x) => (c === 0 ? Number.POSITIVE_INFINITY : x / c),
    cumulativeInverseTensor: (x) =>
      c === 0 ? zerosLike(x).add(Number.POSITIVE_INFINITY) : x.div(c),
  };
}

/** lambda(t) = a + b t with a >= 0, b >= 0. */
export function linear(a: number, b: number): Hazard {
  if (!(a >= 0 && b >= 0 && a + b > 0))
    throw new Error(`linear hazard: need a, b >= 0, not both 0`);
  return {
    name: `linear(${a}, ${b})`,
    rate: (t) => a + b * t,
    cumulative: (t) => a * t + (b * t * t) / 2,
    cumulativeInverse: (c) => (2 * c) / (a + Math.sqrt(a * a + 2 * b * c)),
    cumulativeInverseTensor: (c) =>
      c.mul(2).div(
        c
          .mul(2 * b)
          .add(a * a)
          .sqrt()
          .add(a),
      ),
  };
}

/** Every anchor unsticks at 0+: the continuous-diffusion limit (sec:conn-continuous). */
export function instant(): Hazard {
  return {
    name: 'instant',
    instant: true,
    rate: () => 0,
    cumulative: (t) => (t > 0 ? Number.POSITIVE_INFINITY : 0),
    cumulativeInverse: () => 0,
    cumulativeInverseTensor: (c) => zerosLike(c),
  };
}

export type HazardSpec =
  | { kind: 'polynomial-alpha'; p?: number; eps?: number }
  | { kind: 'log-linear'; eps?: number }
  | { kind: 'cosine'; eps?: number }
  | { kind: 'constant'; rate: number }
  | { kind: 'linear'; a: number; b: number }
  | { kind: 'instant' };

const makers: Record<HazardSpec['kind'], (s: never, T: number) => Hazard> = {
  'polynomial-alpha': (s: { p?: number; eps?: number }, T) =>
    polynomialAlpha(T, s.p ?? 1, s.eps ?? 1e-5),
  'log-linear': (s: { eps?: number }, T) => logLinear(T, s.eps ?? 1e-3),
  cosine: (s: { eps?: number }, T) => cosine(T, s.eps ?? 1e-5),
  constant: (s: { rate: number }) => constant(s.rate),
  linear: (s: { a: number; b: number }) => linear(s.a, s.b),
  instant: () => instant(),
};

/** A hazard from its spec (registry by kind). */
export function makeHazard(spec: HazardSpec, T: number): Hazard {
  const make = makers[spec.kind];
  if (!make)
    throw new Error(
      `unknown hazard '${(spec as { kind: string }).kind}' (known: ${Object.keys(makers).join(', ')})`,
    );
  return make(spec as never, T);
}
