// The reverse quantities against exact oracles on toy problems: the DHM identity (Monte Carlo)
// and the per-anchor identity, p^ac's normalisation and quadrature convergence, the closed
// forms at (W, eta) = (I, 1) and for the masked preset, the classifier-induced score against
// autograd of the exact log-density, and the edges (t -> 0, t -> T, lambda = 0, extreme
// logits, huge |y|).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as P from '../src/process/index.js';
import { mixtureTerms } from '../src/process/quadrature.js';
import type { Tensor } from '../src/torch/index.js';
import * as torch from '../src/torch/index.js';
import { logPosteriorSeqs, makeToy } from './oracle.js';
import { slow } from './slow.js';

const withQuadrature = (proc: P.SJDProcess, n: number, rule: P.QuadratureRule = 'simpson') =>
  proc.withQuadrature(rule, n);

// One position, K = 3 anchors in d = 2.
const anchors = torch.keep(torch.tensor([1.2, 0, -0.6, 1.0, -0.6, -1.0], [3, 2], 'float64'));
const p0 = [0.5, 0.3, 0.2];

/** Exact per-anchor posterior p_t(a | y) for one active position: [n, K] (nodes: N_tau). */
function posterior(proc: P.SJDProcess, y: Tensor, t: number, nodes = 1025): Tensor {
  const lp = mixtureTerms(
    withQuadrature(proc, nodes),
    proc.anchorDistances(y.unsqueeze(1), anchors, t),
    t,
    2,
  ).logPac.squeeze(1);
  return lp.add(torch.tensor(p0, [3], 'float64').log()).softmax(-1);
}

test('p^ac integrates to 1 - S(t) over y (d = 1, eta = 0.5)', () => {
  const proc = P.makeProcess('sjd', { length: 1, eta: 0.5 });
  const E = torch.tensor([1], [1, 1], 'float64');
  const t = 0.6;
  const ys = torch.linspace(-8, 8, 16001, 'float64').view([16001, 1, 1]);
  const lp = mixtureTerms(withQuadrature(proc, 513), proc.anchorDistances(ys, E, t), t, 1).logPac; // [n, 1, 1]
  const mass = lp.exp().sum().item() * (16 / 16000);
  assert.ok(Math.abs(mass - (1 - P.survival(proc.hazard, t))) < 1e-6, `mass ${mass}`);
});

test('quadrature at eta = 1 equals the closed form for every y; at eta < 1 it converges as N_tau grows', () => {
  const gen = new torch.TorchGenerator(1);
  const y = gen.randn([200, 1, 2], 'float64').mul(1.5);
  const hyb = P.makeProcess('hybrid', { length: 1 });
  for (const t of [0.05, 0.5, 0.95]) {
    const { logTarget } = P.logTargetQuadrature(
      withQuadrature(hyb, 65),
      hyb.anchorDistances(y, anchors, t),
      t,
      2,
    );
    const closed = P.logTargetClosedForm(hyb, t, 3);
    assert.ok(logTarget.sub(closed).abs().amax().item() < 1e-8, `t = ${t}`);
    const { logTarget: mid } = P.logTargetQuadrature(
      withQuadrature(hyb, 64, 'midpoint'),
      hyb.anchorDistances(y, anchors, t),
      t,
      2,
    );
    assert.ok(mid.sub(closed).abs().amax().item() < 1e-3, `midpoint t = ${t}`);
  }
  const sjd = P.makeProcess('sjd', { length: 1, eta: 0.5 });
  const t = 0.5;
  const d2 = sjd.anchorDistances(y, anchors, t);
  const ref = mixtureTerms(withQuadrature(sjd, 2049), d2, t, 2).logPac;
  const errs = [9, 17, 33, 65, 129].map((n) =>
    mixtureTerms(withQuadrature(sjd, n), d2, t, 2).logPac.sub(ref).abs().amax().item(),
  );
  for (let k = 1; k < errs.length; k++) assert.ok(errs[k]! < errs[k - 1]!, `errors ${errs}`);
  assert.ok(errs[errs.length - 1]! < 1e-5, `errors ${errs}`);
  const midErrs = [16, 64, 256].map((n) =>
    mixtureTerms(withQuadrature(sjd, n, 'midpoint'), d2, t, 2)
      .logPac.sub(ref)
      .abs()
      .amax()
      .item(),
  );
  assert.ok(midErrs[2]! < midErrs[1]! && midErrs[1]! < midErrs[0]!, `midpoint errors ${midErrs}`);
});

test('DHM identity (eq:dhm-identity) by Monte Carlo: E[lambdahat(X_t, X_0) h(X_t)] = E[lambda*(X_t) h(X_t)]', {
  skip: slow,
}, () => {
  const proc = P.makeProcess('sjd', { length: 1, eta: 0.5 });
  const gen = new torch.TorchGenerator(7);
  const n = 200_000;
  const t = 0.5;
  const x0 = gen.multinomial(torch.tensor(p0, [3], 'float64'), n, true).view([n, 1]);
  const c = P.corrupt(proc, x0, anchors, new Float64Array(n).fill(t), gen);
  const un = c.lossMask.squeeze(1);
  const y = c.y.squeeze(1).index([un]); // [m, 2] unstuck states
  const a = x0.squeeze(1).index([un]); // [m]
  // By 500 rows: each part's [rows, K, N] quadrature terms stay under glibc's 32 MiB mmap
  // ceiling (all rows at once fault in gigabytes of fresh pages). 257 nodes: log p^ac within
  // 1e-5 of the 2,049-node value already at 129 (the convergence test above), far below the
  // Monte Carlo error here (relative 3e-3).
  const byRows = (f: (part: Tensor) => Tensor) => torch.cat(y.split(500).map(f));
  const lamHat = byRows((part) =>
    P.logTargetQuadrature(
      withQuadrature(proc, 257),
      proc.anchorDistances(part.unsqueeze(1), anchors, t),
      t,
      2,
    )
      .logTarget.squeeze(1)
      .exp(),
  ); // [m, K]
  const z = lamHat.gather(1, a.unsqueeze(1)).squeeze(1); // lambdahat(X_t, X_0)
  const star = lamHat.mul(byRows((part) => posterior(proc, part, t, 257))).sum(-1); // lambda*(X_t) = sum_a lambdahat p(a | y)
  for (const h of [torch.onesLike(z), y.select(1, 0).gt(0).to('float64'), y.select(1, 1).tanh()]) {
    const diff = z.sub(star).mul(h);
    const m = diff.mean().item();
    const se = diff.std().item() / Math.sqrt(diff.numel);
    assert.ok(Math.abs(m) < 5 * se, `mean difference ${m} (standard error ${se})`);
  }
  // ... and a wrong kernel (eta = 1 targets against eta = 0.5 data) is detected.
  const wrong = P.logTargetClosedForm(P.makeProcess('hybrid', { length: 1 }), t, 3).exp();
  // (Its plain mean agrees: E[lambdahat | X_0] = lambda S/(1 - S) for every eta; weight by |y|^2.)
  const bad = wrong.index([a]).sub(star).mul(y.square().sum(-1));
  assert.ok(Math.abs(bad.mean().item()) > 10 * (bad.std().item() / Math.sqrt(bad.numel)));
});

test('per-anchor identity (lem:per-anchor): Lambda*(a | y) = lambdahat(y, a) p_t(a | y)', () => {
  const proc = P.makeProcess('sjd', { length: 1, eta: 0.4 });
  const y = new torch.TorchGenerator(8).randn([50, 2], 'float64');
  const t = 0.3;
  const fine = withQuadrature(proc, 1025);
  const d2 = proc.anchorDistances(y.unsqueeze(1), anchors, t);
  const logPac = mixtureTerms(fine, d2, t, 2).logPac.squeeze(1); // [n, K]
  const logP0 = torch.tensor(p0, [3], 'float64').log();
  const logPt = logPac.add(logP0).logsumexp(-1, true); // log p_t(y) on X_A
  // Definition (eq:true-per-anchor-intensity): m_t(a) lambda_t r_t(y | a) / p_t(y).
  const s2 = 0.16 * proc.vp.sigma2(t);
  const logR = d2
    .squeeze(1)
    .mul(-0.5 / s2)
    .sub(Math.log(2 * Math.PI * s2));
  const lhs = logP0
    .add(P.logSurvival(proc.hazard, t))
    .add(P.logRate(proc.hazard, t))
    .add(logR)
    .sub(logPt);
  const { logTarget } = P.logTargetQuadrature(fine, d2, t, 2);
  const rhs = logTarget.squeeze(1).add(logPac.add(logP0).sub(logPt));
  assert.ok(lhs.sub(rhs).abs().amax().item() < 1e-9);
});

test('at (W, eta) = (I, 1): rate = lambda S/(1 - S) for every y and logits, allocation = posterior', () => {
  const proc = P.makeProcess('hybrid', { length: 1 });
  const gen = new torch.TorchGenerator(9);
  const logits = gen.randn([4, 5, 3], 'float64').mul(3);
  for (const t of [0.1, 0.5, 0.9]) {
    const { rate, allocation } = P.plugIn(logits, P.logTargetClosedForm(proc, t, 3));
    const S = P.survival(proc.hazard, t);
    const want = (proc.hazard.rate(t) * S) / (1 - S);
    assert.ok(rate.sub(want).abs().amax().item() < 1e-12 * want);
    close(want, 1 / t, 1e-9);
    assert.ok(allocation.sub(logits.softmax(-1)).abs().amax().item() < 1e-12);
  }
  // Temperature sharpens the allocation only.
  const hot = P.plugIn(logits, P.logTargetClosedForm(proc, 0.5, 3), 0.5);
  assert.ok(hot.allocation.sub(logits.mul(2).softmax(-1)).abs().amax().item() < 1e-12);
});

function close(a: number, b: number, tol: number) {
  assert.ok(Math.abs(a - b) <= tol, `${a} vs ${b}`);
}

test('masked preset: commit rate beta alpha / (1 - alpha) with alpha = S, the masking survival', () => {
  for (const hazard of [
    { kind: 'polynomial-alpha', p: 2 },
    { kind: 'cosine' },
    { kind: 'log-linear' },
  ] as P.HazardSpec[]) {
    const proc = P.makeProcess('masked', { length: 2, hazard });
    const t = 0.4;
    const S = P.survival(proc.hazard, t);
    const beta = proc.hazard.rate(t); // -dS/dt / S
    const { rate } = P.plugIn(
      torch.tensor([5, -3, 0.2, 9, 9, 9], [1, 2, 3], 'float64'),
      P.logTargetClosedForm(proc, t, 3),
    );
    assert.ok(
      rate
        .sub((beta * S) / (1 - S))
        .abs()
        .amax()
        .item() < 1e-12,
      hazard.kind,
    );
  }
});

test('classifier-induced score at eta = 1 with W != I equals autograd of the exact log-density', () => {
  const toy = makeToy(
    3,
    3,
    [
      [1.2, 0],
      [-0.6, 1.0],
      [-0.6, -1.0],
    ],
    (x) => 1 + x[0]! + 2 * Number(x[1] === x[2]),
  );
  const proc = P.makeProcess('sjd', {
    length: 3,
    blend: P.fromDense(3, [1, 0.6, 0, 0.6, 1, 0.6, 0, 0.6, 1]),
  });
  const t = 0.4;
  const gen = new torch.TorchGenerator(10);
  const y = gen.randn([6, 3, 2], 'float64').requiresGrad_(true);
  const committed = torch.tensor(
    [0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0],
    [6, 3],
    'bool',
  );
  const tokens = torch.tensor(
    [0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0],
    [6, 3],
    'int64',
  );
  // Exact log p_t(state) up to y-independent terms: logsumexp over sequences (unnormalised).
  const logJoint = logPosteriorSeqsUnnormalised(proc, toy, y, t, committed, tokens);
  logJoint.sum().backward();
  const exact = torch.where(committed.unsqueeze(-1), 0, y.grad!);
  const post = logPosteriorSeqs(proc, toy, y.detach(), t, committed, tokens).exp();
  const marg = torch.einsum('bn,nlk->blk', [post, toy.seqs.oneHot(3).to('float64')]);
  const s = P.classifierScore(proc, y.detach(), t, marg, toy.anchors, committed, tokens);
  assert.ok(
    s.sub(exact).abs().amax().item() < 1e-9,
    `max |score - autograd| ${s.sub(exact).abs().amax().item()}`,
  );
});

test('classifier-induced score at eta < 1 (time posterior) equals autograd of the exact log-density', () => {
  const proc = P.makeProcess('sjd', { length: 1, eta: 0.5 });
  const t = 0.5;
  const y = new torch.TorchGenerator(11).randn([20, 1, 2], 'float64').requiresGrad_(true);
  const fine = withQuadrature(proc, 1025);
  const logPac = mixtureTerms(fine, proc.anchorDistances(y, anchors, t), t, 2).logPac; // [n, 1, K]
  logPac
    .add(torch.tensor(p0, [3], 'float64').log())
    .logsumexp(-1)
    .sum()
    .backward();
  const exact = y.grad!;
  const yd = y.detach();
  const d2 = proc.anchorDistances(yd, anchors, t);
  const { mixture } = P.logTargetQuadrature(withQuadrature(proc, 257), d2, t, 2);
  const post = posterior(proc, yd.squeeze(1), t).unsqueeze(1); // [n, 1, K]
  const none = torch.zeros([20, 1], 'bool');
  const s = P.classifierScore(
    withQuadrature(proc, 257),
    yd,
    t,
    post,
    anchors,
    none,
    torch.zeros([20, 1], 'int64'),
    mixture,
  );
  const err = s.sub(exact).abs().amax().item();
  assert.ok(err < 1e-5 * (1 + exact.abs().amax().item()), `max |score - autograd| ${err}`);
});

/** log sum_x p0(x) p(state | x) with y differentiable (the oracle's unnormalised joint). */
function logPosteriorSeqsUnnormalised(
  proc: P.SJDProcess,
  toy: ReturnType<typeof makeToy>,
  y: Tensor,
  t: number,
  committed: Tensor,
  tokens: Tensor,
): Tensor {
  const alpha = proc.vp.alpha(t);
  const s2 = proc.vp.sigma2(t);
  const N = toy.seqs.size(0);
  const mu = proc.blendedMean(toy.seqs.oneHot(3).to('float64'), toy.anchors).mul(alpha); // [N, L, d]
  const logActive = y
    .unsqueeze(1)
    .sub(mu.unsqueeze(0))
    .square()
    .sum(-1)
    .mul(-0.5 / s2); // [B, N, L]
  const match = tokens.unsqueeze(1).eq(toy.seqs.unsqueeze(0));
  const perPos = torch.where(
    committed.unsqueeze(1),
    torch.where(match, 0, Number.NEGATIVE_INFINITY),
    logActive,
  );
  return perPos
    .sum(-1)
    .add(torch.tensor(toy.p0, [N], 'float64').log())
    .logsumexp(-1);
}

test('edges: t -> 0, t -> T, lambda = 0, extreme logits, huge |y| give finite rates, allocations and scores', () => {
  const gen = new torch.TorchGenerator(12);
  const cases: [string, P.SJDProcess][] = [
    ['hybrid', P.makeProcess('hybrid', { length: 2 })],
    ['sjd eta 0.5', P.makeProcess('sjd', { length: 2, eta: 0.5 })],
    ['sjd W', P.makeProcess('sjd', { length: 2, blend: P.gaussian1d(2, 1) })],
    [
      'lambda = 0',
      P.makeProcess('sjd', { length: 2, eta: 0.5, hazard: { kind: 'constant', rate: 0 } }),
    ],
    ['masked', P.makeProcess('masked', { length: 2 })],
    ['continuous', P.makeProcess('continuous', { length: 2 })],
  ];
  const logitsSet = [
    gen.randn([3, 2, 3], 'float64'),
    torch.tensor([1e4, -1e4, 0, 3e38, -3e38, 0], [1, 2, 3], 'float64').expand([3, 2, 3]),
  ];
  for (const [name, proc] of cases) {
    for (const t of [1e-6, 1e-3, 0.5, proc.T]) {
      for (const scale of [1, 1e3]) {
        for (const logits of logitsSet) {
          const y = gen.randn([3, 2, 2], 'float64').mul(scale);
          let logTarget: Tensor;
          let mixture: P.MixtureTerms | undefined;
          if (proc.closedForm) logTarget = P.logTargetClosedForm(proc, t, 3);
          else
            ({ logTarget, mixture } = P.logTargetQuadrature(
              proc,
              proc.anchorDistances(y, anchors, t),
              t,
              2,
            ));
          const { rate, allocation } = P.plugIn(logits, logTarget);
          const what = `${name} t=${t} |y|~${scale}`;
          assert.ok(
            rate.isfinite().all().item() && rate.ge(0).all().item(),
            `${what}: rate ${rate.toArray()}`,
          );
          assert.ok(allocation.isfinite().all().item(), `${what}: allocation`);
          assert.ok(
            allocation.sum(-1).sub(1).abs().amax().item() < 1e-9,
            `${what}: allocation sums to 1`,
          );
          const probs = logits.softmax(-1);
          const s = P.classifierScore(
            proc,
            y,
            t,
            probs,
            anchors,
            torch.zeros([3, 2], 'bool'),
            torch.zeros([3, 2], 'int64'),
            mixture,
          );
          assert.ok(s.isfinite().all().item(), `${what}: score`);
        }
      }
    }
  }
});
