// The SJD negative ELBO at eta = 1 without its score term (prop:elbo-eta1; process/elbo.ts), on
// exact oracles: a uniform classifier at w = 1 gives L_CE = log K (int beta S dt = 1 - S(T) = 1)
// and L_RB = 0; the Bayes classifier of a toy whose posterior is closed form gives, with the
// omitted score term L_score of the exact score computed beside it, E[L_CE + L_RB + L_score] =
// H(p0) for uniform and non-uniform w (the bound is tight at the data entropy, app:e2e-hazard),
// and classifiers off the posterior have a larger L_CE + L_RB (the posterior is its joint
// minimiser); the gradient in w from one backward pass equals central finite differences of the expectation over each site's unstick
// event, for both variants (the bound's CE weight, and w = 1 inside it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { elboTerms } from '../src/process/elbo.js';
import { polynomialAlpha } from '../src/process/hazard.js';
import { VPSchedule } from '../src/process/vp.js';
import * as torch from '../src/torch/index.js';

const hazard = polynomialAlpha(1, 1); // S(t) = 1 - t: MDLM's log-linear masking, S(T) = 0
const vp = new VPSchedule();
const K = 3;
const p0 = [0.5, 0.3, 0.2];
const H = -p0.reduce((s, p) => s + p * Math.log(p), 0);
const E = [
  [1.5, 0],
  [-1.5, 0],
  [0, 1.5],
]; // anchors in R^2

/** Midpoint times on (0, 1): n of them. */
const grid = (n: number) => Float64Array.from({ length: n }, (_, i) => (i + 0.5) / n);

test('uniform classifier at w = 1: L_CE = log K, L_RB = 0 (the expectation over unstick events, exactly); a fixed uniform w skips L_RB, exactly 0', () => {
  const t = grid(200);
  const L = 10; // tokens in proportion to p0
  const x0 = torch.tensor([0, 0, 0, 0, 0, 1, 1, 1, 2, 2], [1, L], 'int64');
  let ce = 0;
  for (let r = 0; r < t.length; r++) {
    const at = (w: torch.Tensor) =>
      elboTerms({
        logits: torch.zeros([1, L, K]),
        x0,
        unstuck: torch.ones([1, L], 'bool'),
        t: t.subarray(r, r + 1),
        T: 1,
        hazard,
        w,
      });
    const o = at(torch.ones([K], 'float64').requiresGrad_()); // learned: every term formed
    assert.ok(Math.abs(o.rb.item()) < 1e-14 * o.ce.item()); // lhat (sum_b P_b - 1): rounding
    // every site unstuck: beta S / (1 - S) log K = log K / t; the expectation over the unstick
    // event multiplies it by 1 - S = t
    assert.ok(Math.abs(o.ce.item() - Math.log(K) / t[r]!) < 1e-12 * o.ce.item());
    // held fixed and the same for every token, L_RB is 0 exactly and not formed; L_CE is the same
    const fixed = at(torch.ones([K], 'float64').mul(2));
    const two = at(torch.ones([K], 'float64').mul(2).requiresGrad_());
    assert.equal(fixed.rb.item(), 0);
    assert.equal(fixed.ce.item(), two.ce.item());
    ce += (o.ce.item() * t[r]!) / t.length;
  }
  assert.ok(Math.abs(ce - Math.log(K)) < 1e-12, `${ce}`); // int_0^1 beta S dt log K = log K
});

/**
 * One Monte Carlo estimate of E[L_CE + L_RB] on the toy: rows at midpoint times, 10 sites a row
 * with tokens in proportion to p0, each unstuck with probability 1 - S_a(t) and then at
 * Y ~ N(alpha E(a), sigma^2); the classifier's logits from Y (`classify`). Beside it, L_score of
 * the exact score (eq:lscore): over the same unstuck sites, beta / 2 |grad log p_t^ac(Y) -
 * grad log q_t(Y | a)|^2 = beta / 2 alpha^2 / sigma^4 |sum_b p_t(b | Y) E_b - E_a|^2.
 */
function toyElbo(
  w: number[],
  classify: (y: number[], t: number) => number[],
  ceWeight: 'w' | 'uniform' = 'w',
  rows = 4000,
  seed = 1,
) {
  const gen = new torch.TorchGenerator(seed);
  const t = grid(rows);
  const L = 10;
  const tokens = [0, 0, 0, 0, 0, 1, 1, 1, 2, 2];
  const u = gen.rand([rows, L], 'float64').data() as Float64Array;
  const z = gen.randn([rows, L, 2], 'float64').data() as Float64Array;
  const logits: number[] = [];
  const unstuck: boolean[] = [];
  let score = 0;
  const exact = bayes(w);
  for (let r = 0; r < rows; r++) {
    const a = vp.alpha(t[r]!);
    const s = Math.sqrt(vp.sigma2(t[r]!));
    for (let j = 0; j < L; j++) {
      const tok = tokens[j]!;
      const off = u[r * L + j]! < -Math.expm1(-w[tok]! * hazard.cumulative(t[r]!));
      unstuck.push(off);
      const y = [0, 1].map((k) => a * E[tok]![k]! + s * z[(r * L + j) * 2 + k]!);
      logits.push(...classify(y, t[r]!));
      if (!off) continue;
      const l = exact(y, t[r]!);
      const top = Math.max(...l);
      const p = l.map((x) => Math.exp(x - top));
      const z0 = p.reduce((x, y) => x + y, 0);
      const m = [0, 1].map((k) => E.reduce((acc, e, b) => acc + (p[b]! / z0) * e[k]!, 0));
      const d2 = (m[0]! - E[tok]![0]!) ** 2 + (m[1]! - E[tok]![1]!) ** 2;
      score += ((vp.beta(t[r]!) / 2) * a * a * d2) / (s * s) ** 2 / (rows * L);
    }
  }
  const r = elboTerms({
    logits: torch.tensor(logits, [rows, L, K], 'float64'),
    x0: torch.tensor(Array.from({ length: rows }, () => tokens).flat(), [rows, L], 'int64'),
    unstuck: torch
      .tensor(
        unstuck.map((b) => (b ? 1 : 0)),
        [rows, L],
        'int64',
      )
      .to('bool'),
    t,
    T: 1,
    hazard,
    w: torch.tensor(w, [K], 'float64'),
    ceWeight,
  });
  return { ce: r.ce.item(), rb: r.rb.item(), score };
}

/** The Bayes classifier of the toy: log p_t(b | y) = log p0(b) (1 - S_b(t)) N(y; alpha E_b, sigma^2) + c. */
const bayes =
  (w: number[], temper = 1) =>
  (y: number[], t: number) => {
    const a = vp.alpha(t);
    const s2 = vp.sigma2(t);
    return E.map((e, b) => {
      const d2 = (y[0]! - a * e[0]!) ** 2 + (y[1]! - a * e[1]!) ** 2;
      const u = -Math.expm1(-w[b]! * hazard.cumulative(t));
      return (Math.log(p0[b]!) + Math.log(u) - d2 / (2 * s2)) * temper;
    });
  };

test('the Bayes classifier: E[L_CE + L_RB + L_score] = H(p0) for uniform and non-uniform w; off the posterior L_CE + L_RB is larger', () => {
  for (const w of [
    [1, 1, 1],
    [1, 2, 1.5],
    [3, 1.2, 1],
  ]) {
    // w >= 1 keeps beta w S^w = w (1 - t)^(w - 1) bounded, so the midpoint grid integrates it
    const r = toyElbo(w, bayes(w));
    const total = r.ce + r.rb + r.score;
    const about = `(ce ${r.ce}, rb ${r.rb}, score ${r.score})`;
    assert.ok(Math.abs(total - H) < 0.02, `w ${w}: ${total} vs H(p0) ${H} ${about}`);
    assert.ok(r.score > 0.1, about); // the omitted term is not small on this toy
    if (w.every((x) => x === 1)) assert.ok(Math.abs(r.rb) < 1e-12);
  }
  // a classifier that ignores the hazard (the posterior of w = 1 under w = [3, 0.4, 1]) or is
  // tempered: the same draws, a larger L_CE + L_RB
  const w = [3, 0.4, 1];
  const best = toyElbo(w, bayes(w));
  for (const [name, other] of [
    ['the w = 1 posterior', bayes([1, 1, 1])],
    ['tempered', bayes(w, 0.5)],
  ] as const) {
    const r = toyElbo(w, other);
    assert.ok(
      r.ce + r.rb > best.ce + best.rb + 0.01,
      `${name}: ${r.ce + r.rb} vs ${best.ce + best.rb}`,
    );
  }
});

test('the gradient in w from one backward pass equals finite differences of the expected bound (both variants)', () => {
  // single sites (B rows, L = 1) at fixed Y (their logits): the expectation over each site's
  // unstick event is (1 - S_a(t; w)) times the estimate with the site unstuck
  const gen = new torch.TorchGenerator(4);
  const rows = 12;
  const t = Float64Array.from({ length: rows }, (_, i) => 0.04 + (0.9 * i) / rows);
  const logits = gen.randn([rows, 1, K], 'float64');
  const x0 = torch.tensor(
    Array.from({ length: rows }, (_, i) => i % K),
    [rows, 1],
    'int64',
  );
  const w0 = [0.7, 1.3, 2.1];
  for (const ceWeight of ['w', 'uniform'] as const) {
    const term = (r: number, w: torch.Tensor) => {
      const o = elboTerms({
        logits: logits.narrow(0, r, 1),
        x0: x0.narrow(0, r, 1),
        unstuck: torch.ones([1, 1], 'bool'),
        t: t.subarray(r, r + 1),
        T: 1,
        hazard,
        w,
        ceWeight,
      });
      return o.ce.add(o.rb);
    };
    const unstuckProb = (r: number, w: number[]) =>
      -Math.expm1(-w[r % K]! * hazard.cumulative(t[r]!));
    const expected = (w: number[]) => {
      let s = 0;
      for (let r = 0; r < rows; r++)
        s += unstuckProb(r, w) * term(r, torch.tensor(w, [K], 'float64')).item();
      return s;
    };
    const grad = new Array(K).fill(0);
    for (let r = 0; r < rows; r++) {
      const w = torch.tensor(w0, [K], 'float64').requiresGrad_();
      term(r, w).backward();
      const g = w.grad!.toArray() as number[];
      for (let k = 0; k < K; k++) grad[k] += unstuckProb(r, w0) * g[k]!;
    }
    for (let k = 0; k < K; k++) {
      const h = 1e-6;
      const up = [...w0];
      const down = [...w0];
      up[k]! += h;
      down[k]! -= h;
      const fd = (expected(up) - expected(down)) / (2 * h);
      assert.ok(
        Math.abs(fd - grad[k]!) < 1e-6 * Math.max(1, Math.abs(fd)),
        `${ceWeight} w_${k}: backward ${grad[k]} vs finite differences ${fd}`,
      );
    }
    // the uniform-CE variant's CE term has no w-gradient: its signal is L_RB's
    if (ceWeight === 'uniform') {
      const w = torch.tensor(w0, [K], 'float64').requiresGrad_();
      const o = elboTerms({
        logits,
        x0,
        unstuck: torch.ones([rows, 1], 'bool'),
        t,
        T: 1,
        hazard,
        w,
        ceWeight,
      });
      o.ce.add(w.sum().mul(0)).backward(); // a graph to w even where the CE has none
      // rho's gradient is w-dependent only through 1 - S_a; the CE weight is beta S^(w = 1)
      assert.deepEqual(w.grad!.toArray(), [0, 0, 0]);
    }
  }
});
