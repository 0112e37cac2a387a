// Exact oracles for the process tests: a toy data law p0 over all K^L sequences of K anchors in
// R^d, and the exact per-position posterior of x0 given a reverse-time state (active positions'
// y, committed positions' tokens) by enumeration with the mixture density. Wrapped as a
// "classifier" it drives the samplers; their output law must then be p0.
import { fromDense, logSurvival, makeProcess, type SJDProcess } from '../src/process/index.js';
import { mixtureTerms } from '../src/process/quadrature.js';
import type { SamplerName } from '../src/sampling/index.js';
import { type Classifier, sample } from '../src/sampling/index.js';
import type { Tensor } from '../src/torch/index.js';
import * as torch from '../src/torch/index.js';
import { SETTINGS } from './settings.js';

export interface Toy {
  K: number;
  L: number;
  d: number;
  anchors: Tensor; // [K, d] float64
  p0: Float64Array; // [K^L], index = sum_i x_i K^(L-1-i)
  seqs: Tensor; // [N, L] int64
  codes: Tensor; // [N, L K] float64: each sequence's one-hot codes, position by position
}

export function makeToy(
  K: number,
  L: number,
  anchors: number[][],
  weight: (x: number[]) => number,
): Toy {
  const N = K ** L;
  const seqs: number[] = [];
  const p0 = new Float64Array(N);
  for (let n = 0; n < N; n++) {
    const x = Array.from({ length: L }, (_, i) => Math.floor(n / K ** (L - 1 - i)) % K);
    seqs.push(...x);
    p0[n] = weight(x);
  }
  const Z = p0.reduce((a, b) => a + b, 0);
  for (let n = 0; n < N; n++) p0[n]! /= Z;
  const X = torch.keep(torch.tensor(seqs, [N, L], 'int64'));
  return {
    K,
    L,
    d: anchors[0]!.length,
    anchors: torch.keep(torch.tensor(anchors.flat(), [K, anchors[0]!.length], 'float64')),
    p0,
    seqs: X,
    codes: torch.keep(
      X.oneHot(K)
        .to('float64')
        .view([N, L * K]),
    ),
  };
}

/**
 * log P(x0 = x | state) for every sequence x: y [B, L, d], committed [B, L], tokens [B, L]
 * -> [B, N]. quadratureN sets the accuracy of p^ac when eta < 1 (W = I then): at 33 Simpson nodes
 * the posterior of any state is within 5e-4 in total variation of the 129-node one (measured at
 * t from 0.999 to 0.002 on 500 random states each), far below the samplers' tests' tolerances;
 * 65 nodes cost 20x the time at 10,000 rows (the [B, L, K, N] terms outgrow the cache).
 * Every term is a sum over positions of a factor of (y_i, x_i) or of y_i . mu_i(x), so the whole
 * [B, N] table is a few matrix products with the sequences' one-hot codes [N, L K] and means
 * [N, L d] (no [B, N, L, d] tensor); terms that are the same for every x (||y_i||^2, the Gaussian
 * normaliser, a committed site's log S(t)) cancel in the softmax and are left out.
 */
export function logPosteriorSeqs(
  proc: SJDProcess,
  toy: Toy,
  y: Tensor,
  t: number,
  committed: Tensor,
  tokens: Tensor,
  quadratureN = 33,
): Tensor {
  const [B, L] = committed.shape as [number, number];
  const { K, d } = toy;
  const N = toy.seqs.size(0);
  const w = proc.anchorWeights(K);
  const log1mS = torch.tensor(
    Array.from(w, (wa) => Math.log(-Math.expm1(logSurvival(proc.hazard, t, wa)))),
    [K],
    'float64',
  );
  const codes = toy.codes.transpose(0, 1); // [L K, N]
  const active = committed.logicalNot().unsqueeze(-1); // [B, L, 1]
  // The active sites' log density factors that depend on x_i alone: [B, L, K].
  const siteTerms =
    proc.config.kernel === 'mask' || proc.closedForm
      ? torch.where(active, log1mS.view([1, 1, K]).expand([B, L, K]), 0)
      : torch.where(
          active,
          mixtureTerms(
            proc.withQuadrature('simpson', quadratureN),
            proc.anchorDistances(y, toy.anchors, t),
            t,
            d,
          ).logPac,
          0,
        );
  let logLik = siteTerms.view([B, L * K]).matmul(codes); // [B, N]
  if (proc.config.kernel !== 'mask' && proc.closedForm) {
    // -||y_i - alpha mu_i(x)||^2 / (2 sigma^2) summed over the active sites, less ||y_i||^2.
    const alpha = proc.vp.alpha(t);
    const s2 = proc.vp.sigma2(t);
    const mu = proc.blendedMean(toy.seqs.oneHot(K).to('float64'), toy.anchors).mul(alpha); // [N, L, d]
    const yActive = torch.where(active, y.to('float64'), 0).view([B, L * d]);
    const cross = yActive.matmul(mu.view([N, L * d]).transpose(0, 1)); // [B, N]
    const norms = active.squeeze(-1).to('float64').matmul(mu.square().sum(-1).transpose(0, 1)); // [B, N]
    logLik = logLik.add(cross.sub(norms.mul(0.5)).div(s2));
  }
  // A committed site must carry x_i: x is ruled out where fewer committed sites agree than
  // there are committed sites.
  const own = torch.where(committed.unsqueeze(-1), tokens.clamp(0, K - 1).oneHot(K), 0);
  const agree = own
    .to('float64')
    .view([B, L * K])
    .matmul(codes); // [B, N]
  const need = committed.to('float64').sum(-1, true); // [B, 1]
  return torch
    .where(agree.lt(need.sub(0.5)), Number.NEGATIVE_INFINITY, logLik)
    .add(torch.tensor(toy.p0, [N], 'float64').log())
    .logSoftmax(-1);
}

/**
 * The exact per-position posterior as logits [B, L, K]: a perfect classifier. Per-row times
 * are served by the rows that share a time, together.
 */
export function oracleClassifier(proc: SJDProcess, toy: Toy): Classifier {
  const atTime = (y: Tensor, t: number, committed: Tensor): Tensor => {
    const tokens = committedTokens(toy, y, committed);
    const post = logPosteriorSeqs(proc, toy, y, t, committed, tokens).exp(); // [B, N]
    const marg = post.matmul(toy.codes).view([y.size(0), toy.L, toy.K]); // [B, L, K]
    return marg.clamp(1e-300, null).log();
  };
  return (y, t, committed) => {
    if (typeof t === 'number') return atTime(y, t, committed);
    const B = y.size(0);
    const parts: Tensor[] = [];
    const order: number[] = [];
    for (const tb of new Set(t)) {
      const rows = [...t.keys()].filter((b) => t[b] === tb);
      const idx = torch.tensor(rows, [rows.length], 'int64');
      parts.push(atTime(y.indexSelect(0, idx), tb, committed.indexSelect(0, idx)));
      order.push(...rows);
    }
    const back = new Array<number>(B);
    order.forEach((b, k) => {
      back[b] = k;
    });
    return torch.cat(parts, 0).indexSelect(0, torch.tensor(back, [B], 'int64')); // [B, L, K]
  };
}

/** Committed positions sit exactly on an anchor: recover the token from y. */
/** A sampler step's context on the exact oracle of `toy`: temperature 1, no truncation. */
export const oracleContext = (proc: SJDProcess, toy: Toy) => ({
  process: proc,
  classifier: oracleClassifier(proc, toy),
  anchors: toy.anchors,
  temperature: 1,
  topP: 1,
});

function committedTokens(toy: Toy, y: Tensor, committed: Tensor): Tensor {
  const dist = y
    .to('float64')
    .unsqueeze(2)
    .sub(toy.anchors.view([1, 1, toy.K, toy.d]))
    .square()
    .sum(-1); // [B, L, K]
  return torch.where(committed, dist.argmin(-1), 0);
}

/** The driver's options for sampling the toy with the exact posterior as the classifier. */
export function oracleSampling<O extends { batch: number; nfe: number; seed: number }>(
  proc: SJDProcess,
  toy: Toy,
  o: O,
) {
  return {
    process: proc,
    classifier: oracleClassifier(proc, toy),
    anchors: toy.anchors,
    length: toy.L,
    ...o,
  };
}

/**
 * The tokens [batch, L] of a sampling run on the oracle, drawn in chunks of at most `chunk` rows
 * (chunk k seeded seed + k): the law is the same, and the eta < 1 quadrature's [rows, L, K, N]
 * float64 terms stay under glibc's 32 MiB mmap ceiling, where 20,000 rows at once spend more time
 * faulting fresh pages in than computing (measured: 5x the wall time).
 */
export function oracleTokens(
  proc: SJDProcess,
  toy: Toy,
  o: {
    batch: number;
    nfe: number;
    seed: number;
    sampler: SamplerName;
    grid?: 'uniform' | 'cosine';
  },
  chunk = 5000,
): Tensor {
  const parts: Tensor[] = [];
  for (let k = 0; k * chunk < o.batch; k++) {
    const batch = Math.min(chunk, o.batch - k * chunk);
    parts.push(
      sample({ ...SETTINGS, ...oracleSampling(proc, toy, { ...o, batch, seed: o.seed + k }) })
        .tokens,
    );
  }
  return torch.cat(parts);
}

/** Total variation between the empirical law of sampled sequences [B, L] and p0. */
export function totalVariation(toy: Toy, tokens: Tensor): number {
  const [B, L] = tokens.shape as [number, number];
  const powers = torch.tensor(
    Array.from({ length: L }, (_, i) => toy.K ** (L - 1 - i)),
    [L],
    'int64',
  );
  const idx = tokens.mul(powers).sum(-1); // [B]
  const counts = torch
    .zeros([toy.p0.length], 'float64')
    .scatterAdd(0, idx, torch.ones([B], 'float64'))
    .toArray();
  return 0.5 * counts.reduce((s, c, n) => s + Math.abs(c / B - toy.p0[n]!), 0);
}

/** The samplers' oracle problem: K = 3 anchors in d = 2, L = 3, a correlated p0. */
export const ORACLE_TOY = makeToy(
  3,
  3,
  [
    [1.2, 0],
    [-0.6, 1.0],
    [-0.6, -1.0],
  ],
  (x) => (x[0] === x[1] ? 3 : 1) * (x[1] !== x[2] ? 2 : 0.5) * (x[2] === 0 ? 0.3 : 1),
);
/** The 3 x 3 band used as a non-identity W. */
export const ORACLE_W = fromDense(3, [1, 0.6, 0, 0.6, 1, 0.6, 0, 0.6, 1]);

/** The configurations whose sampled law must be p0: [name, process, sampler]. */
export function oracleConfigs(): [string, SJDProcess, SamplerName][] {
  return [
    ['hybrid (I, 1), exact ancestral', makeProcess('hybrid', { length: 3 }), 'ancestral'],
    [
      'sjd W != I, eta = 1, exact ancestral',
      makeProcess('sjd', { length: 3, blend: ORACLE_W }),
      'ancestral',
    ],
    [
      'hybrid (I, 1), exact ancestral with logit refresh',
      makeProcess('hybrid', { length: 3 }),
      'ancestral-refresh',
    ],
    [
      'hybrid (I, 1), Alg. 2 with logit refresh',
      makeProcess('hybrid', { length: 3 }),
      'sjd-refresh',
    ],
    ['masked, Alg. 2', makeProcess('masked', { length: 3 }), 'sjd'],
    ['masked, MDLM ancestral', makeProcess('masked', { length: 3 }), 'mdlm'],
    ['hybrid (W, eta) = (I, 1)', makeProcess('hybrid', { length: 3 }), 'sjd'],
    ['sjd eta = 0.5', makeProcess('sjd', { length: 3, eta: 0.5 }), 'sjd'],
    ['sjd W != I, eta = 1', makeProcess('sjd', { length: 3, blend: ORACLE_W }), 'sjd'],
    // CANDI's rank-degradation schedule (alpha(0) < 1); r_max near 1/2 makes N(0, I) the
    // exact prior at T to within the test's resolution.
    [
      'sjd W != I, eta = 1, rank-degradation schedule',
      makeProcess('sjd', {
        length: 3,
        blend: ORACLE_W,
        vp: { kind: 'rank', rMin: 0.05, rMax: 0.49, anchorDim: 2, T: 1 },
      }),
      'sjd',
    ],
  ];
}

/**
 * Samplers measured on the toy for the record (docs/reports/samplers/oracle.md) whose law is not p0 in
 * the limit: CANDI's deterministic latent updates (no noise is injected).
 */
export function oracleTableOnly(): [string, SJDProcess, SamplerName][] {
  return [
    ['hybrid (I, 1), CANDI (posterior mean)', makeProcess('hybrid', { length: 3 }), 'candi'],
    [
      'hybrid (I, 1), CANDI cache (sampled x0)',
      makeProcess('hybrid', { length: 3 }),
      'candi-cache',
    ],
  ];
}
