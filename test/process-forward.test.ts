// The forward law: VP schedule, hazards (rate, cumulative, survival, truncated inverse CDF),
// blending matrices, time sampling and Alg. 1 corruption, against closed forms and with
// statistical checks (fixed seeds, 5-sigma bounds).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import * as P from '../src/process/index.js';
import * as torch from '../src/torch/index.js';

const close = (a: number, b: number, tol: number, what = '') =>
  assert.ok(Math.abs(a - b) <= tol, `${what} ${a} vs ${b}`);

test('VP schedule: alpha, sigma^2, B(t) and v_t(tau) closed forms and limits', () => {
  const vp = new P.VPSchedule();
  close(vp.B(1), 0.1 + 19.9 / 2, 1e-12, 'B(1)');
  close(vp.alpha(0.5), Math.exp(-(0.05 + (19.9 * 0.25) / 2) / 2), 1e-15, 'alpha');
  close(vp.sigma2(1e-9), 1e-10, 1e-15, 'sigma2 near 0');
  close(vp.alpha(0.3) ** 2 + vp.sigma2(0.3), 1, 1e-15, 'VP');
  close(vp.v(0.7, 0.2, 1), vp.sigma2(0.7), 1e-15, 'eta = 1: v = sigma^2(t)');
  close(vp.v(0.7, 0.7, 0.5), 0.25 * vp.sigma2(0.7), 1e-15, 'tau -> t: eta^2 sigma^2(t)');
  close(vp.v(0.7, 0, 0.5), vp.sigma2(0.7), 1e-15, 'tau -> 0: sigma^2(t)');
  // Decreasing in tau for eta < 1 (app:convolution sanity checks).
  for (let k = 1; k < 10; k++)
    assert.ok(vp.v(0.7, (0.7 * k) / 10, 0.5) < vp.v(0.7, (0.7 * (k - 1)) / 10, 0.5));
  assert.throws(() => new P.VPSchedule({ betaMin: 1, betaMax: 0.5, T: 1 }), /VP schedule/);
});

const RANK: P.RankVPConfig = { kind: 'rank', rMin: 0.05, rMax: 0.4, anchorDim: 64, T: 1 };

test('rank-degradation schedule: Phi(-alpha sqrt(d) / (sqrt 2 sigma)) = r(t), beta = dB/dt, alpha(0) < 1', () => {
  const vp = new P.VPSchedule(RANK);
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    const r = 0.05 + 0.35 * t;
    const z = (-vp.alpha(t) * Math.sqrt(64)) / (Math.SQRT2 * Math.sqrt(vp.sigma2(t)));
    close(normalCdf(z, 0, 1), r, 1e-9, `r(${t})`);
    close(vp.alpha(t) ** 2 + vp.sigma2(t), 1, 1e-15, 'VP');
  }
  for (const t of [0.01, 0.3, 0.6, 0.99]) {
    const h = 1e-5;
    close(vp.beta(t), (vp.B(t + h) - vp.B(t - h)) / (2 * h), 1e-5 * vp.beta(t), `beta(${t})`);
  }
  for (let k = 1; k <= 10; k++) assert.ok(vp.alpha(k / 10) < vp.alpha((k - 1) / 10));
  // SNR(0) = 2 Phi^{-1}(0.05)^2 / 64: the continuous coordinate is never decisive.
  close(vp.alpha(0) ** 2 / vp.sigma2(0), (2 * 1.6448536269514722 ** 2) / 64, 1e-12, 'SNR(0)');
  for (const bad of [
    { ...RANK, rMin: 0 },
    { ...RANK, rMax: 0.5 },
    { ...RANK, rMax: 0.04 },
    { ...RANK, anchorDim: 0 },
  ])
    assert.throws(() => new P.VPSchedule(bad), /rank-degradation schedule: need/);
  assert.throws(
    () => new P.VPSchedule({ kind: 'cubic' } as unknown as P.VPConfig),
    /unknown VP schedule 'cubic'/,
  );
});

test('rank-degradation schedule by Monte Carlo: the fraction of anchors ranked above the truth is r(t) (+- 0.01)', () => {
  // 27 orthogonal anchors of norm sqrt(64) = 8; y = alpha E(a) + sigma eps; a competitor b
  // ranks above a when |y - alpha E(b)| < |y - alpha E(a)|, i.e. <y, E(b)> > <y, E(a)> (equal
  // norms). 4,000 draws x 26 competitors.
  const vp = new P.VPSchedule(RANK);
  const K = 27;
  const d = 64;
  const E = torch.eye(d).narrow(0, 0, K).mul(8); // [K, d]
  const gen = new torch.TorchGenerator(7);
  for (const t of [0.1, 0.5, 0.9]) {
    const n = 4000;
    const a = gen.randint(0, K, [n]); // [n]
    const y = E.indexSelect(0, a)
      .mul(vp.alpha(t))
      .add(gen.randn([n, d]).mul(Math.sqrt(vp.sigma2(t)))); // [n, d]
    const score = y.matmul(E.transpose(0, 1)); // [n, K]
    const own = score.gather(1, a.unsqueeze(1)); // [n, 1]
    const above = score.gt(own).to('float64').sum().item() / (n * (K - 1));
    close(above, 0.05 + 0.35 * t, 0.01, `rank fraction at t = ${t}`);
  }
});

const hazards: [string, P.Hazard][] = [
  ['polynomial-alpha p=1', P.polynomialAlpha(1, 1)],
  ['polynomial-alpha p=2', P.polynomialAlpha(1, 2)],
  ['log-linear', P.logLinear(1, 1e-3)],
  ['cosine', P.cosine(1)],
  ['constant', P.constant(2.5)],
  ['linear', P.linear(0.5, 3)],
];

for (const [name, h] of hazards) {
  test(`hazard ${name}: rate is dLambda/dt, inverse inverts, survival in (0, 1]`, () => {
    for (const t of [0.01, 0.2, 0.5, 0.8, 0.97]) {
      const e = 1e-6;
      close(
        (h.cumulative(t + e) - h.cumulative(t - e)) / (2 * e),
        h.rate(t),
        1e-5 * (1 + h.rate(t)),
        `${name} rate at ${t}`,
      );
      close(h.cumulativeInverse(h.cumulative(t)), t, 1e-9, `${name} inverse at ${t}`);
      const S = P.survival(h, t);
      assert.ok(S > 0 && S <= 1);
    }
  });

  test(`hazard ${name}: unstick times follow lambda S / (1 - S(t)) on (0, t) (KS, 20k draws)`, () => {
    const t = 0.6;
    const n = 20_000;
    const u = new torch.TorchGenerator(3).rand([n], 'float64').toArray();
    const taus = u.map((x) => P.sampleUnstickTime(h, t, x)).sort((a, b) => a - b);
    const cdf = (s: number) => -Math.expm1(-h.cumulative(s)) / -Math.expm1(-h.cumulative(t));
    let ks = 0;
    taus.forEach((s, i) => {
      ks = Math.max(ks, Math.abs(cdf(s) - (i + 1) / n), Math.abs(cdf(s) - i / n));
    });
    assert.ok(taus[0]! > 0 && taus[n - 1]! <= t);
    assert.ok(ks < 1.63 / Math.sqrt(n), `KS ${ks}`); // 1% level
  });
}

test('polynomial-alpha: S(t) = 1 - t/T, commit rate lambda S/(1-S) = 1/t, constant tail near T', () => {
  const h = P.polynomialAlpha(1, 1, 1e-5);
  for (const t of [0.1, 0.5, 0.9]) {
    close(P.survival(h, t), 1 - t, 1e-12, 'S');
    close((h.rate(t) * P.survival(h, t)) / (1 - P.survival(h, t)), 1 / t, 1e-9, 'rate');
  }
  close(h.rate(1), h.rate(1 - 1e-5), 1e-9, 'tail');
  assert.ok(Number.isFinite(h.cumulative(1)) && P.survival(h, 1) < 1e-4);
});

test('per-anchor weights: rate beta w(a), survival S^w(a)', () => {
  const h = P.polynomialAlpha(1, 1);
  close(P.survival(h, 0.5, 3), 0.5 ** 3, 1e-12);
  close(Math.exp(P.logRate(h, 0.5, 3)), 3 * h.rate(0.5), 1e-12);
  const tau = P.sampleUnstickTime(h, 0.5, 0.3, 3);
  close(-Math.expm1(-3 * h.cumulative(tau)) / -Math.expm1(-3 * h.cumulative(0.5)), 0.3, 1e-12);
  assert.throws(() => P.makeHazard({ kind: 'nope' } as never, 1), /unknown hazard 'nope'/);
});

test('blending matrices: identity, 1-D Gaussian, grid (row-stochastic), Sudoku graph, user matrices', () => {
  assert.ok(P.identity(5).isIdentity);
  const g = P.gaussian1d(4, 1).toDense();
  close(g[0]!, 1, 0);
  close(g[1]!, Math.exp(-0.5), 1e-15);
  close(g[3]!, Math.exp(-4.5), 1e-15);
  // row-normalised: each row is the W_ii = 1 row over its sum
  const gr = P.gaussian1d(4, 1, 'row').toDense();
  for (let i = 0; i < 4; i++) {
    const row = g.slice(i * 4, i * 4 + 4);
    const total = row.reduce((a, b) => a + b, 0);
    for (let j = 0; j < 4; j++) close(gr[i * 4 + j]!, row[j]! / total, 1e-15);
  }
  const grid = P.grid2d(3, 3, 1, 'row', 2);
  const gd = grid.toDense();
  for (let i = 0; i < 18; i++)
    close(
      gd.slice(i * 18, i * 18 + 18).reduce((a, b) => a + b, 0),
      1,
      1e-12,
      `row ${i}`,
    );
  close(gd[0 * 18 + 1]!, 0, 0, 'channels do not mix');
  const s = P.sudoku(1.5);
  const sd = s.toDense();
  assert.equal(s.nnz, 81 * 21, 'each cell: itself and 20 peers');
  close(sd[0]!, 1, 0);
  close(sd[1]!, Math.exp(-1 / 4.5), 1e-15, 'row neighbour');
  close(sd[10]!, Math.exp(-2 / 4.5), 1e-15, 'box neighbour (1,1)');
  close(sd[4 * 9 + 4]!, 0, 0, 'not a peer');
  assert.throws(() => P.fromDense(2, [1, 2, 3]), /3 values for a 2 x 2 matrix/);
  assert.throws(() => P.fromEdges(2, [{ i: 0, j: 2, w: 1 }]), /outside positions 0..1/);
});

test('the 2-D Gaussian W applies as row and column kernels, equal to its dense definition', () => {
  const gen = new torch.TorchGenerator(4);
  for (const [H, Wd, C, sigma, norm] of [
    [5, 7, 1, 2.5, 'row'],
    [4, 3, 3, 1.5, 'row'],
    [3, 4, 2, 1, 'none'],
  ] as const) {
    const L = H * Wd * C;
    // The definition, entry by entry: exp(-d^2 / 2 sigma^2) within a channel, row-normalised.
    const dense = new Float64Array(L * L);
    for (let s = 0; s < H * Wd; s++) {
      const w = Array.from({ length: H * Wd }, (_, s2) =>
        Math.exp(
          -((Math.floor(s / Wd) - Math.floor(s2 / Wd)) ** 2 + ((s % Wd) - (s2 % Wd)) ** 2) /
            (2 * sigma * sigma),
        ),
      );
      const total = norm === 'row' ? w.reduce((a, b) => a + b, 0) : 1;
      for (let s2 = 0; s2 < H * Wd; s2++)
        for (let ch = 0; ch < C; ch++) dense[(s * C + ch) * L + s2 * C + ch] = w[s2]! / total;
    }
    const B = P.grid2d(H, Wd, sigma, norm, C);
    assert.ok(B.factors, 'factorised');
    close(
      B.toDense().reduce((m, v, k) => Math.max(m, Math.abs(v - dense[k]!)), 0),
      0,
      1e-15,
    );
    const x = gen.randn([2, L, 3], 'float64');
    const want = torch.tensor(dense, [L, L], 'float64').matmul(x);
    close(B.apply(x).sub(want).abs().amax().item(), 0, 1e-13, `${H}x${Wd}x${C} ${norm}`);
    // float32 as in training
    close(B.apply(x.to('float32')).to('float64').sub(want).abs().amax().item(), 0, 1e-5, 'float32');
  }
  assert.throws(
    () =>
      new P.Blend('bad', 10, null, {
        height: 2,
        width: 2,
        channels: 2,
        rows: new Float64Array(4),
        cols: new Float64Array(4),
      }),
    /factors for a 2 x 2 x 2 grid do not fit length 10/,
  );
});

test('blend application: dense and sparse paths agree with the dense product', () => {
  const gen = new torch.TorchGenerator(1);
  const L = 600; // above the dense limit: a sparse band
  const edges: P.Edge[] = [];
  for (let i = 0; i < L; i++)
    for (const j of [i - 1, i, i + 1])
      if (j >= 0 && j < L) edges.push({ i, j, w: 0.5 + ((i * 7 + j) % 5) / 10 });
  const W = P.fromEdges(L, edges);
  assert.equal(W.dense, false);
  const x = gen.randn([2, L, 3], 'float64');
  const want = torch.tensor(W.toDense(), [L, L], 'float64').matmul(x);
  assert.ok(W.apply(x).sub(want).abs().amax().item() < 1e-12);
  const small = P.gaussian1d(8, 1.5);
  const xs = gen.randn([2, 8, 3], 'float64');
  assert.ok(
    small
      .apply(xs)
      .sub(torch.tensor(small.toDense(), [8, 8], 'float64').matmul(xs))
      .abs()
      .amax()
      .item() < 1e-12,
  );
  assert.throws(() => small.apply(gen.randn([1, 5, 3])), /built for length 8, applied to length 5/);
});

test('time sampling: range, antithetic pairs, stratification', () => {
  const gen = new torch.TorchGenerator(2);
  const u = P.sampleTimes(1000, 1, 'uniform', gen);
  assert.ok(u.every((t) => t >= 1e-3 && t <= 1 - 1e-3));
  const a = P.sampleTimes(8, 1, 'antithetic', gen);
  for (let i = 0; i < 8; i += 2) close(a[i]! + a[i + 1]!, 1, 1e-12);
  const s = P.sampleTimes(10, 2, 'stratified', gen);
  s.forEach((t, i) => {
    assert.ok(t >= (i / 10) * 2 - 1e-9 && t <= ((i + 1) / 10) * 2 + 1e-9);
  });
});

test('corruption (Alg. 1): stuck fraction S(t), unstuck mean alpha W E(x0) and variance v_t, clues stay', () => {
  const gen = new torch.TorchGenerator(4);
  const proc = P.makeProcess('sjd', {
    length: 3,
    blend: P.fromDense(3, [1, 0.5, 0, 0.5, 1, 0.5, 0, 0.5, 1]),
  });
  const E = torch.tensor([1, 0, 0, 1], [2, 2], 'float64');
  const B = 40_000;
  const x0 = torch.tensor(
    Array.from({ length: B * 3 }, (_, k) => [0, 1, 1][k % 3]!),
    [B, 3],
    'int64',
  );
  const t = 0.4;
  const clue = torch.tensor(
    Array.from({ length: B * 3 }, (_, k) => (k % 3 === 2 ? 1 : 0)),
    [B, 3],
    'bool',
  );
  const c = P.corrupt(proc, x0, E, new Float64Array(B).fill(t), gen, clue);
  const S = 1 - t;
  const stuck0 = c.stuck.select(1, 0).to('float64').mean().item();
  assert.ok(Math.abs(stuck0 - S) < 5 * Math.sqrt((S * (1 - S)) / B), `stuck fraction ${stuck0}`);
  assert.equal(c.stuck.select(1, 2).all().item(), 1, 'clues stay committed');
  assert.equal(c.lossMask.select(1, 2).any().item(), 0, 'clues leave the loss');
  // Position 0 unstuck: mean alpha (E(0) + 0.5 E(1)) = alpha (1, 0.5), variance sigma^2(t) each coordinate.
  const un = c.lossMask.select(1, 0);
  const y0 = c.y.select(1, 0).index([un]); // [n, 2]
  const n = y0.size(0);
  const a = proc.vp.alpha(t);
  const s2 = proc.vp.sigma2(t);
  const m = y0.mean(0).toArray();
  close(m[0]!, a, 5 * Math.sqrt(s2 / n), 'mean 0');
  close(m[1]!, 0.5 * a, 5 * Math.sqrt(s2 / n), 'mean 1');
  const v = y0.var(0).toArray();
  close(v[0]!, s2, 5 * s2 * Math.sqrt(2 / n), 'variance');
  // Stuck positions sit exactly on their anchor.
  const st = c.stuck.select(1, 1).logicalAnd(clue.select(1, 1).logicalNot());
  assert.ok(
    c.y
      .select(1, 1)
      .index([st])
      .sub(torch.tensor([0, 1], [1, 2], 'float64'))
      .abs()
      .amax()
      .item() === 0,
  );
});

test('corruption at eta < 1: the unstuck variance is the mixture over unstick times', () => {
  const gen = new torch.TorchGenerator(5);
  const proc = P.makeProcess('sjd', { length: 1, eta: 0.3 });
  const E = torch.tensor([0, 0], [1, 2], 'float64');
  const B = 60_000;
  const t = 0.5;
  const c = P.corrupt(proc, torch.zeros([B, 1], 'int64'), E, new Float64Array(B).fill(t), gen);
  const y = c.y.select(1, 0).index([c.lossMask.select(1, 0)]);
  // E[v_t(tau) | unstuck] by fine quadrature of the unstick density.
  const h = proc.hazard;
  let num = 0;
  let den = 0;
  for (let k = 0; k < 20000; k++) {
    const tau = ((k + 0.5) / 20000) * t;
    const dens = h.rate(tau) * P.survival(h, tau);
    num += dens * proc.vp.v(t, tau, 0.3);
    den += dens;
  }
  const want = num / den;
  const got = y.square().mean().item();
  close(got, want, 5 * want * Math.sqrt(2 / y.size(0)) * 2, 'E|y|^2 / d');
});

test('corruption: gradients reach learned anchors; the mask kernel puts unstuck sites at the mask point', () => {
  const gen = new torch.TorchGenerator(6);
  const proc = P.makeProcess('sjd', { length: 4, blend: P.gaussian1d(4, 1) });
  const E = gen.randn([3, 5]).requiresGrad_(true);
  const x0 = torch.tensor([0, 1, 2, 1, 2, 2, 0, 0], [2, 4], 'int64');
  const c = P.corrupt(proc, x0, E, new Float64Array([0.5, 0.9]), gen);
  c.y.square().sum().backward();
  assert.ok(E.grad!.abs().sum().item() > 0);
  const m = P.makeProcess('masked', { length: 4 });
  const cm = P.corrupt(m, x0, E.detach(), new Float64Array([0.5, 0.9]), gen);
  const unstuckNorm = cm.y.norm(2, [-1]).index([cm.lossMask]);
  assert.ok(unstuckNorm.numel === 0 || unstuckNorm.abs().amax().item() === 0);
  assert.throws(
    () => P.makeProcess('masked', { length: 4, blend: P.gaussian1d(4, 1) }),
    /takes no blending matrix W/,
  );
});

test("eta < 1 with a non-identity W is refused with the paper's reason", () => {
  assert.throws(
    () => P.makeProcess('sjd', { length: 4, eta: 0.5, blend: P.gaussian1d(4, 1) }),
    /eta < 1 with a non-identity W .* per-position marginals no longer suffice/,
  );
  assert.throws(() => P.makeProcess('sjd', { length: 4, eta: 0 }), /eta must be in \(0, 1\]/);
  assert.throws(() => P.makeProcess('bogus', { length: 4 }), /unknown process 'bogus'/);
});

test('the value anchors of K levels are pairwise distinct, at least 2 sin(pi / 2(K - 1)) apart (P = 2(K - 1))', () => {
  for (const K of [2, 16, 17, 256]) {
    const E = P.valueAnchors(K); // [K, 8]
    const d = E.unsqueeze(1).sub(E.unsqueeze(0)).square().sum([-1]).sqrt(); // [K, K]
    const bound = 2 * Math.sin(Math.PI / (2 * (K - 1)));
    let min = Infinity;
    const D = d.data() as Float64Array;
    for (let i = 0; i < K; i++) for (let j = i + 1; j < K; j++) min = Math.min(min, D[i * K + j]!);
    assert.ok(min >= bound - 1e-12, `K = ${K}: closest pair ${min} < ${bound}`);
    assert.equal(P.valuePeriod(K), 2 * (K - 1));
  }
  // the paper's period P = K - 1 would make the extremes one anchor: E(0) = E(K - 1)
  const v = torch.tensor([0, 16], [2], 'float64');
  const paper = v.unsqueeze(-1).mul((2 * Math.PI) / 16); // f = 1, P = 16
  close(paper.sin().select(0, 0).item(), paper.sin().select(0, 1).item(), 1e-12);
  close(paper.cos().select(0, 0).item(), paper.cos().select(0, 1).item(), 1e-12);
});

test('value-space blending (images, eq:embed-the-blur): mu = E(B v(x0)), the one-hot posterior mean agrees', () => {
  const B = P.grid2d(2, 2, 1.5, 'row');
  const proc = P.makeProcess('sjd', { length: 4, blend: B, mean: 'value' });
  const K = 256;
  const anchors = P.valueAnchors(K); // [K, 8]
  assert.deepEqual(anchors.shape, [K, 8]);
  close(anchors.select(0, 17).norm().item(), 2, 1e-12, '|E(v)| = sqrt(F)');
  const x0 = torch.tensor([0, 255, 128, 7], [1, 4], 'int64');
  const mu = proc.tokenMean(x0, anchors); // [1, 4, 8]
  const Bd = B.toDense();
  const v = [0, 255, 128, 7];
  const blurred = [0, 1, 2, 3].map((i) =>
    [0, 1, 2, 3].reduce((s, j) => s + Bd[i * 4 + j]! * v[j]!, 0),
  );
  for (let i = 0; i < 4; i++) {
    for (let f = 1; f <= 4; f++) {
      close(
        mu.select(1, i).toArray()[f - 1]!,
        Math.sin((2 * Math.PI * f * blurred[i]!) / 510),
        1e-9,
        `sin f=${f}`,
      );
      close(
        mu.select(1, i).toArray()[f + 3]!,
        Math.cos((2 * Math.PI * f * blurred[i]!) / 510),
        1e-9,
        `cos f=${f}`,
      );
    }
  }
  const viaPosterior = proc.blendedMean(x0.oneHot(K).to('float64'), anchors);
  assert.ok(viaPosterior.sub(mu).abs().amax().item() < 1e-9);
});

test('tensor forms: Lambda^{-1} of every hazard and v_t(tau) of both VP laws match the float64 scalars', () => {
  const hazards: P.HazardSpec[] = [
    { kind: 'polynomial-alpha', p: 1 },
    { kind: 'polynomial-alpha', p: 2.5 },
    { kind: 'log-linear' },
    { kind: 'cosine' },
    { kind: 'constant', rate: 3 },
    { kind: 'linear', a: 0.5, b: 4 },
  ];
  const cs = [0, 1e-9, 1e-4, 0.01, 0.3, 1, 2.5, 7, 11.4, 11.6, 15, 30];
  for (const spec of hazards) {
    const h = P.makeHazard(spec, 1);
    const got = h.cumulativeInverseTensor(torch.tensor(cs, [cs.length], 'float64')).toArray();
    cs.forEach((c, k) => {
      const want = h.cumulativeInverse(c);
      close(got[k]!, want, 1e-13 * Math.max(1, want), `${h.name} at c = ${c}`);
    });
  }
  const inst = P.makeHazard({ kind: 'instant' }, 1);
  assert.deepEqual(
    inst.cumulativeInverseTensor(torch.tensor([0, 3], [2], 'float64')).toArray(),
    [0, 0],
  );
  const laws = [
    new P.VPSchedule(),
    new P.VPSchedule({ kind: 'rank', rMin: 0.05, rMax: 0.4, anchorDim: 64, T: 1 }),
  ];
  const ts = [0.05, 0.5, 0.97];
  const taus = [0, 0.01, 0.2, 0.45, 0.96];
  for (const vp of laws) {
    const tT = torch.tensor(ts, [ts.length, 1], 'float64');
    const tauT = torch.tensor(taus, [1, taus.length], 'float64');
    const got = vp.vTensor(tT, tauT, 0.4).toArray(); // [3, 5]
    for (const [i, t] of ts.entries())
      for (const [j, tau] of taus.entries()) {
        if (tau > t) continue;
        close(got[i * taus.length + j]!, vp.v(t, tau, 0.4), 1e-13, `v_${t}(${tau})`);
      }
  }
});

test('corruption on tensors equals Alg. 1 drawn position by position from the same uniforms', () => {
  const L = 5;
  for (const [name, o] of [
    ['hybrid', { length: L, hazard: { kind: 'cosine' } }],
    ['sjd', { length: L, eta: 0.5, anchorWeights: [0.5, 1, 2] }],
    ['masked', { length: L }],
  ] as const) {
    const proc = P.makeProcess(name, o as P.PresetOptions);
    const E = torch.tensor([1, 0, 0, 1, -1, 0], [3, 2], 'float64');
    const B = 64;
    const x0 = torch.tensor(
      Array.from({ length: B * L }, (_, k) => (k * 7) % 3),
      [B, L],
      'int64',
    );
    const t = Float64Array.from({ length: B }, (_, b) => (b + 0.5) / B);
    const c = P.corrupt(proc, x0, E, t, new torch.TorchGenerator(11));
    const twin = new torch.TorchGenerator(11); // the same draws, in the same order
    const u1 = twin.rand([B, L], 'float64').toArray();
    const u2 = twin.rand([B, L], 'float64').toArray();
    const w = proc.anchorWeights(3);
    const tokens = x0.toArray();
    const stuck = c.stuck.toArray();
    const tau = c.tau.toArray();
    let unstuck = 0;
    for (let k = 0; k < B * L; k++) {
      const tb = t[Math.floor(k / L)]!;
      const wa = w[tokens[k]!]!;
      const isStuck = u1[k]! < P.survival(proc.hazard, tb, wa);
      assert.equal(stuck[k], isStuck ? 1 : 0, `${name}: stuck at ${k}`);
      if (isStuck) assert.ok(Number.isNaN(tau[k]!));
      else {
        unstuck++;
        close(
          tau[k]!,
          P.sampleUnstickTime(proc.hazard, tb, u2[k]!, wa),
          1e-12,
          `${name}: tau at ${k}`,
        );
      }
    }
    assert.ok(unstuck > B, `${name}: ${unstuck} unstuck positions exercise the inverse CDF`);
  }
});

test('achievedRank: orthogonal anchors of norm sqrt(d) reach the rank schedule target r(t) exactly; with K = 2 the own-nearest fraction is 1 - r (Monte Carlo, 4 std)', () => {
  const d = 8;
  const vp = new P.VPSchedule({ kind: 'rank', ...P.RANK_TEXT8, anchorDim: d, T: 1 });
  const target = P.rankDegradation({ kind: 'rank', ...P.RANK_TEXT8, anchorDim: d, T: 1 });
  const E = torch.eye(d, 'float64').mul(Math.sqrt(d)); // [d, d], pairwise distance sqrt(2d)
  for (const t of [0, 0.3, 1]) {
    const r = P.achievedRank(vp, E, t, new torch.TorchGenerator(1), 16);
    assert.ok(
      Math.abs(r.rank - target.rank(t)) < 1e-9,
      `t ${t}: ${r.rank} against ${target.rank(t)}`,
    );
  }
  const two = E.narrow(0, 0, 2); // K = 2
  const n = 20_000;
  const r = P.achievedRank(vp, two, 0.5, new torch.TorchGenerator(2), n);
  const want = 1 - target.rank(0.5);
  const tol = 4 * Math.sqrt((want * (1 - want)) / n);
  assert.ok(Math.abs(r.ownNearest - want) < tol, `${r.ownNearest} against ${want}`);
});
