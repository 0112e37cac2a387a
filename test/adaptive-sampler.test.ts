// The adaptive sampler (src/sampling/adaptive-step.ts, board-time.ts and the driver's adaptive
// loop) on stub denoisers with known logits: the commit rule (every active site at or above the
// threshold by probability or by margin, at least the surest one a step, each to its argmax;
// the temperature sharpens), each board's time t = Lambda^{-1}(-log(1 - active / blanks))
// (f T for the log-linear hazard, (2T/pi) acos(1 - f) for the cosine one), the NFE each board
// spends (one a step while it has active sites; finished boards are not evaluated and do not
// change; the budget caps it and the last step fills by argmax), per-row paths through the
// reverse-SDE move (their substeps composed in closed form at eta = 1: the same law as one by
// one) and the model denoiser, and an exact-oracle check.
//
// The adaptive policy is not expected to reproduce the data law p0 with the exact posterior
// (as test/sampler-oracle.test.ts checks for Alg. 2): it commits each sure site to its argmax
// and at least one site a step, a decoder for problems with one answer, not a sampler of p0.
// What the exact posterior does guarantee is checked instead: every commit has positive
// posterior mass given the sites committed before it, so on a toy whose law is supported on
// a constraint set (the 6 permutations of 3 tokens) every output lies in that set, with and
// without a clue.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Denoiser as Model } from '../src/model/denoiser.js';
import * as P from '../src/process/index.js';
import type { SamplerName } from '../src/sampling/index.js';
import {
  adaptiveStep,
  boardTime,
  type Classifier,
  eulerChain,
  modelClassifier,
  reverseSdeMove,
  reverseSdeMoveAlong,
  type SamplerState,
  sample,
  stepGenerator,
  substepTimes,
  type Time,
} from '../src/sampling/index.js';
import * as torch from '../src/torch/index.js';
import { makeToy, ORACLE_TOY, oracleClassifier } from './oracle.js';
import { SETTINGS } from './settings.js';

/** Logits [K] whose softmax is exactly `p` (up to rounding). */
const logitsOf = (p: number[]): number[] => p.map(Math.log);
/** K logits whose softmax puts p on anchor a and spreads the rest evenly. */
const sureAt = (K: number, a: number, p: number): number[] =>
  logitsOf(Array.from({ length: K }, (_, k) => (k === a ? p : (1 - p) / (K - 1))));

test('commit rule: every active site at or above the threshold (probability or margin) commits to its argmax, at least the surest one; the temperature sharpens; the last step fills', () => {
  const toy = ORACLE_TOY; // K = 3 anchors in d = 2
  const proc = P.makeProcess('hybrid', { length: 5 });
  // Sites 0..3 active, site 4 committed to token 0. p1 and margins:
  //   site 0 (0.025, 0.95, 0.025): 0.95, 0.925    site 1 (0.075, 0.075, 0.85): 0.85, 0.775
  //   site 2 (0.5, 0.3, 0.2):      0.5,  0.2      site 3 (0.6, 0.39, 0.01):    0.6,  0.21
  const p = [
    [0.025, 0.95, 0.025],
    [0.075, 0.075, 0.85],
    [0.5, 0.3, 0.2],
    [0.6, 0.39, 0.01],
    [0.1, 0.1, 0.8],
  ];
  const logits = torch.tensor(p.flatMap(logitsOf), [1, 5, 3]);
  const state: SamplerState = {
    y: torch.tensor([0.3, -0.2, 0.1, 0.4, -0.5, 0.2, 0.0, 0.1, 1.2, 0], [1, 5, 2], 'float64'),
    committed: torch.tensor([0, 0, 0, 0, 1], [1, 5], 'bool'),
    tokens: torch.tensor([0, 0, 0, 0, 0], [1, 5], 'int64'),
  };
  const step = (
    commit: { by: 'probability' | 'margin'; threshold: number },
    temperature = 1,
    last = false,
    l = logits,
    s = state,
  ) =>
    adaptiveStep(
      { process: proc, classifier: () => l, anchors: toy.anchors, temperature, topP: 1, commit },
      s,
      new Float64Array([4]),
      last,
      stepGenerator(2, 0),
    );
  const cases: [string, ReturnType<typeof step>, number[]][] = [
    ['probability 0.9', step({ by: 'probability', threshold: 0.9 }), [1, 0, 0, 0, 1]],
    ['probability 0.8', step({ by: 'probability', threshold: 0.8 }), [1, 1, 0, 0, 1]],
    ['probability 0.55', step({ by: 'probability', threshold: 0.55 }), [1, 1, 0, 1, 1]],
    [
      'probability 0.99: none sure, the surest',
      step({ by: 'probability', threshold: 0.99 }),
      [1, 0, 0, 0, 1],
    ],
    ['margin 0.7', step({ by: 'margin', threshold: 0.7 }), [1, 1, 0, 0, 1]],
    ['margin 0.8', step({ by: 'margin', threshold: 0.8 }), [1, 0, 0, 0, 1]],
    ['margin 0.2', step({ by: 'margin', threshold: 0.2 }), [1, 1, 1, 1, 1]],
    // At temperature 0.5, p ∝ p^2: site 1 gets 0.7225 / (0.7225 + 2 * 0.005625) = 0.985.
    [
      'probability 0.9, temperature 0.5',
      step({ by: 'probability', threshold: 0.9 }, 0.5),
      [1, 1, 0, 0, 1],
    ],
    ['last step', step({ by: 'probability', threshold: 0.99 }, 1, true), [1, 1, 1, 1, 1]],
  ];
  for (const [name, out, want] of cases) {
    assert.deepEqual(out.committed.toArray(), want, name);
    const tokens = out.tokens.toArray();
    [1, 2, 0, 0].forEach((argmax, i) => {
      if (want[i]) assert.equal(tokens[i], argmax, `${name}: site ${i} on its argmax`);
    });
    assert.equal(tokens[4], 0, `${name}: the committed site keeps its token`);
    // Committed sites sit on their anchors; the active ones moved (the reverse SDE).
    const y = out.y.toArray();
    const E = toy.anchors.toArray();
    for (let i = 0; i < 5; i++) {
      const yi = y.slice(2 * i, 2 * i + 2);
      if (want[i]) assert.deepEqual(yi, E.slice(2 * tokens[i]!, 2 * tokens[i]! + 2), name);
      else assert.notDeepEqual(yi, state.y.toArray().slice(2 * i, 2 * i + 2), name);
    }
  }
  // The surest site by probability and by margin differ: A (0.5, 0.45, 0.05) has p1 0.5 and
  // margin 0.05, B (0.45, 0.275, 0.275) p1 0.45 and margin 0.175.
  const two = torch.tensor(
    [logitsOf([0.5, 0.45, 0.05]), logitsOf([0.45, 0.275, 0.275])].flat(),
    [1, 2, 3],
  );
  const s2: SamplerState = {
    y: torch.zeros([1, 2, 2], 'float64'),
    committed: torch.zeros([1, 2], 'bool'),
    tokens: torch.zeros([1, 2], 'int64'),
  };
  const proc2 = P.makeProcess('hybrid', { length: 2 });
  const one = (by: 'probability' | 'margin') =>
    adaptiveStep(
      {
        process: proc2,
        classifier: () => two,
        anchors: toy.anchors,
        temperature: 1,
        topP: 1,
        commit: { by, threshold: 0.9 },
      },
      s2,
      new Float64Array([2]),
      false,
      stepGenerator(2, 0),
    ).committed.toArray();
  assert.deepEqual(one('probability'), [1, 0]);
  assert.deepEqual(one('margin'), [0, 1]);
  assert.throws(
    () => step({ by: 'probability', threshold: 0 }),
    /commit threshold must be in \(0, 1\], got 0/,
  );
  assert.throws(
    () => step({ by: 'margin', threshold: 1.5 }),
    /commit threshold must be in \(0, 1\]/,
  );
});

test('board time: 1 - S(t) = active / blanks, t = f T for the log-linear hazard and (2T/pi) acos(1 - f) for the cosine, clipped into [T_CLIP, T]; 0 when done', () => {
  const linear = P.makeProcess('hybrid', { length: 4 });
  const cosine = P.makeProcess('hybrid', { length: 4, hazard: { kind: 'cosine' } });
  const twoT = P.makeProcess('hybrid', { length: 4, vp: { betaMin: 0.1, betaMax: 20, T: 2 } });
  for (const f of [1, 0.75, 0.5, 1 / 3, 0.1, 1 / 81, 1e-4]) {
    const clip = (t: number, T = 1) => Math.min(T, Math.max(P.T_CLIP, t));
    assert.ok(Math.abs(boardTime(linear, f) - clip(f)) < 1e-12, `log-linear f = ${f}`);
    assert.ok(Math.abs(boardTime(twoT, f) - clip(2 * f, 2)) < 1e-12, `T = 2, f = ${f}`);
    assert.ok(
      Math.abs(boardTime(cosine, f) - clip((2 / Math.PI) * Math.acos(1 - f))) < 1e-9,
      `cosine f = ${f}: ${boardTime(cosine, f)}`,
    );
  }
  assert.equal(boardTime(linear, 1), 1);
  assert.equal(boardTime(linear, 1e-6), P.T_CLIP);
  assert.equal(boardTime(linear, 0), 0);
  assert.throws(
    () => boardTime(linear, 1.5),
    /fraction of active blanks must be in \[0, 1\], got 1.5/,
  );
});

/**
 * A stub classifier over K = 6 one-hot anchors that tells rows apart by their clue at
 * position 0 (token = row id): row r gets table[r] [L, K], whatever else the state holds.
 * Records each call's times, rows and committed sites.
 */
function rowStub(table: number[][][]) {
  const [R, L, K] = [table.length, table[0]!.length, table[0]![0]!.length];
  const all = torch.keep(torch.tensor(table.flat(2), [R, L, K]));
  const calls: { t: Time; rows: number[]; committed: number[] }[] = [];
  const classifier: Classifier = (y, t, committed) => {
    const ids = y.select(1, 0).argmax(-1); // [n] the clue at position 0
    calls.push({ t, rows: ids.toArray(), committed: committed.to('uint8').toArray() });
    return all.indexSelect(0, ids);
  };
  return { classifier, calls };
}

/**
 * The driver's toy: four boards of L = 8 over K = 6 under a stub with fixed logits. Row 0: every
 * blank sure (1 step). Row 1: none sure (one a step: 7). Row 2: clues at 0..2, 2 sure blanks
 * then 3 unsure (1 + 3 = 4 steps). Row 3: all clues (0 steps).
 */
function driverToy() {
  const [L, K] = [8, 6];
  const anchors = torch.keep(torch.eye(K, 'float64'));
  const unsure = (i: number) => sureAt(K, (i + 2) % K, 0.4 + 0.05 * i); // p 0.4..0.75, distinct
  const table = [
    Array.from({ length: L }, (_, i) => sureAt(K, i % K, 0.99)),
    Array.from({ length: L }, (_, i) => unsure(i)),
    Array.from({ length: L }, (_, i) => (i === 3 || i === 6 ? sureAt(K, 1, 0.97) : unsure(i))),
    Array.from({ length: L }, () => sureAt(K, 0, 0.5)),
  ];
  const clues = [1, 1, 3, L];
  const B = table.length;
  const argmax = table.map((row) => row.map((l) => l.indexOf(Math.max(...l))));
  const condition = () => ({
    tokens: torch.tensor(
      Array.from({ length: B * L }, (_, k) => (k % L === 0 ? (k / L) | 0 : 4)),
      [B, L],
      'int64',
    ),
    mask: torch.tensor(
      Array.from({ length: B * L }, (_, k) => (k % L < clues[(k / L) | 0]! ? 1 : 0)),
      [B, L],
      'bool',
    ),
  });
  return { L, K, anchors, table, clues, B, argmax, condition };
}

test('driver: one NFE a step per unfinished board at its own time; finished boards are not evaluated and stay; the budget caps the NFE and the last step fills by argmax', () => {
  const { L, anchors, table, clues, B, argmax, condition } = driverToy();
  for (const [proc, time] of [
    [P.makeProcess('hybrid', { length: L }), (f: number) => f],
    [
      P.makeProcess('hybrid', { length: L, hazard: { kind: 'cosine' } }),
      (f: number) => (2 / Math.PI) * Math.acos(1 - f),
    ],
  ] as const) {
    for (const [budget, want] of [
      [64, [1, 7, 4, 0]],
      [3, [1, 3, 3, 0]],
    ] as const) {
      const stub = rowStub(table);
      const r = sample({
        ...SETTINGS,
        process: proc,
        classifier: stub.classifier,
        anchors,
        batch: B,
        length: L,
        nfe: budget,
        seed: 1,
        sampler: 'adaptive' as const,
        commit: { by: 'probability', threshold: 0.9 },
        condition: condition(),
        record: true,
      });
      const name = `${proc.hazard.name}, budget ${budget}`;
      assert.deepEqual([...r.rowNfe], want, `${name}: NFE per board`);
      assert.equal(r.nfe, Math.max(...want), `${name}: classifier calls`);
      assert.equal(stub.calls.length, r.nfe);
      // Each call sees the unfinished boards only, in row order, each at its own time.
      stub.calls.forEach((c, i) => {
        assert.deepEqual(
          c.rows,
          want.flatMap((n, b) => (n > i ? [b] : [])),
          `${name}: call ${i}`,
        );
        assert.ok(c.t instanceof Float64Array && c.t.length === c.rows.length);
        c.rows.forEach((b, j) => {
          const active = c.committed.slice(j * L, (j + 1) * L).filter((x) => x === 0).length;
          const f = active / (L - clues[b]!);
          const expect = Math.min(1, Math.max(P.T_CLIP, time(f)));
          assert.ok(
            Math.abs((c.t as Float64Array)[j]! - expect) < 1e-9,
            `${name}: call ${i} row ${b}`,
          );
        });
      });
      // Every site is filled, each on its argmax (the stub never changes its mind), clues kept.
      assert.deepEqual(
        r.tokens.toArray(),
        argmax.flatMap((row, b) => row.map((a, i) => (i < clues[b]! ? (i === 0 ? b : 4) : a))),
      );
      // A board does not change after it finishes.
      const tr = r.trajectory!;
      assert.equal(tr.length, r.nfe + 1);
      for (let b = 0; b < B; b++) {
        for (let i = want[b]!; i < tr.length; i++) {
          const [a, z] = [tr[want[b]!]!, tr[i]!];
          const row = (x: ArrayLike<number>) => Array.from(x).slice(b * L, (b + 1) * L);
          assert.deepEqual(row(z.tokens), row(a.tokens), `${name}: row ${b} step ${i}`);
          assert.deepEqual(row(z.yNorm), row(a.yNorm), `${name}: row ${b} y, step ${i}`);
          assert.ok(row(z.committed).every((x) => x === 1));
        }
      }
      // Row 1 commits exactly one site a step, the surest active one first.
      if (budget === 64)
        for (let i = 0; i < 7; i++) {
          const fresh = [...Array(L).keys()].filter(
            (j) => !tr[i]!.committed[L + j] && tr[i + 1]!.committed[L + j],
          );
          assert.deepEqual(fresh, [7 - i], `${name}: row 1 step ${i}`);
        }
    }
  }
});

test('driver: per-row budgets end each row at its own cap (its last step fills it); budgets all equal to the NFE change nothing; bad budgets are refused', () => {
  const { L, anchors, table, clues, B, argmax, condition } = driverToy();
  const proc = P.makeProcess('hybrid', { length: L });
  const run = (nfe: number, budgets?: number[], sampler: SamplerName = 'adaptive') =>
    sample({
      ...SETTINGS,
      process: proc,
      classifier: rowStub(table).classifier,
      anchors,
      batch: B,
      length: L,
      nfe,
      budgets,
      seed: 1,
      sampler,
      commit: { by: 'probability', threshold: 0.9 },
      condition: condition(),
    });
  // Unbudgeted: [1, 7, 4, 0] steps. Row 1 capped at 3 and row 2 at 2 fill at their caps.
  const mixed = run(64, [64, 3, 2, 5]);
  assert.deepEqual([...mixed.rowNfe], [1, 3, 2, 0]);
  // The stub never changes its mind: every site on its argmax whatever the cap, clues kept.
  assert.deepEqual(
    mixed.tokens.toArray(),
    argmax.flatMap((row, b) => row.map((a, i) => (i < clues[b]! ? (i === 0 ? b : 4) : a))),
  );
  // A row's cap in a mixed batch is its cap alone: row 1 at 3 matches a run capped at 3.
  const alone = run(3);
  const row = (x: number[], b: number) => x.slice(b * L, (b + 1) * L);
  assert.deepEqual(row(mixed.tokens.toArray(), 1), row(alone.tokens.toArray(), 1));
  // Budgets equal to the run's NFE are the run without budgets, bit for bit.
  const plain = run(5);
  const same = run(5, [5, 5, 5, 5]);
  assert.deepEqual(same.tokens.toArray(), plain.tokens.toArray());
  assert.deepEqual(same.y.toArray(), plain.y.toArray());
  assert.deepEqual([...same.rowNfe], [...plain.rowNfe]);
  assert.throws(() => run(64, [64, 3]), /2 row budgets for a batch of 4 rows/);
  assert.throws(() => run(8, [8, 9, 8, 8]), /from 1 \(one step\) to the run's 8, got 9/);
  assert.throws(() => run(8, [8, 0, 8, 8]), /got 0/);
  assert.throws(() => run(8, [8, 4, 8, 8], 'confidence'), /need an adaptive sampler/);
});

test('a grid sampler counts its NFE for every row', () => {
  const proc = P.makeProcess('hybrid', { length: 3 });
  const r = sample({
    ...SETTINGS,
    process: proc,
    classifier: oracleClassifier(proc, ORACLE_TOY),
    anchors: ORACLE_TOY.anchors,
    batch: 5,
    length: 3,
    nfe: 8,
    seed: 1,
    sampler: 'confidence' as const,
  });
  assert.equal(r.nfe, 7);
  assert.deepEqual([...r.rowNfe], [7, 7, 7, 7, 7]);
});

test('the substeps of one pass composed (eta = 1): eulerChain is the Euler-Maruyama substeps one by one, in mean (1e-12) and noise variance', () => {
  const proc = P.makeProcess('hybrid', { length: 3 });
  const path = substepTimes(proc, 0.9, 0.2, 1);
  assert.ok(path.length > 3, 'several substeps');
  const chain = eulerChain(proc, path);
  assert.equal(chain.steps, path.length - 1);
  // One coordinate by the drift line itself, y <- y + (beta y / 2 + beta score) dt, with the
  // score -(y - alpha m) / sigma^2 at the fixed m, and the variance of the noise carried along.
  const [y0, m] = [0.7, -0.4];
  let [y, v] = [y0, 0];
  for (let k = 0; k + 1 < path.length; k++) {
    const [t, s] = [path[k]!, path[k + 1]!];
    const beta = proc.vp.beta(t);
    const score = -(y - proc.vp.alpha(t) * m) / Math.max(proc.vp.sigma2(t), P.VARIANCE_FLOOR);
    const a = 1 + (beta * (t - s)) / 2 - (beta * (t - s)) / proc.vp.sigma2(t);
    y += (0.5 * beta * y + beta * score) * (t - s);
    v = v * a * a + beta * (t - s);
  }
  assert.ok(
    Math.abs(chain.a * y0 + chain.b * m - y) < 1e-12,
    `mean ${chain.a * y0 + chain.b * m} vs ${y}`,
  );
  assert.ok(Math.abs(chain.c ** 2 - v) < 1e-12 * v, `variance ${chain.c ** 2} vs ${v}`);
  assert.deepEqual(eulerChain(proc, [0.4, 0.4]), { a: 1, b: 0, c: 0, steps: 0 });
});

test('per-row paths: a row moves by the law of its substeps taken one by one (20,000 draws, 4 sigma); rows with nothing active or no path stay exactly, as do committed sites', () => {
  const toy = ORACLE_TOY;
  const proc = P.makeProcess('hybrid', { length: 3 });
  const ctx = {
    process: proc,
    classifier: () => torch.zeros([1]),
    anchors: toy.anchors,
    temperature: 1,
    topP: 1,
  };
  const N = 20_000;
  const y1 = new torch.TorchGenerator(3).randn([1, 3, 2], 'float64');
  const c1 = torch.tensor([0, 1, 0], [1, 3], 'bool');
  const logits1 = new torch.TorchGenerator(4).randn([1, 3, 3]);
  const rep = (x: torch.Tensor, n: number) => x.expand([n, ...x.shape.slice(1)]).contiguous();
  const state = (n: number) => ({
    y: rep(y1, n),
    committed: rep(c1, n),
    tokens: torch.zeros([n, 3], 'int64'),
  });
  const path = [0.6, 0.52, 0.45, 0.4];
  const composed = reverseSdeMoveAlong(
    ctx,
    state(N),
    rep(logits1, N),
    Array.from({ length: N }, () => path),
    stepGenerator(1, 0),
  ); // [N, 3, 2]
  let y = state(N).y;
  for (let k = 0; k + 1 < path.length; k++)
    y = reverseSdeMove(
      ctx,
      { ...state(N), y },
      rep(logits1, N),
      path[k]!,
      path[k + 1]!,
      stepGenerator(2, k),
    );
  const [ma, mb] = [composed.mean([0]).toArray(), y.mean([0]).toArray()];
  const [va, vb] = [composed.var([0]).toArray(), y.var([0]).toArray()];
  for (let i = 0; i < 6; i++) {
    if (i === 2 || i === 3) {
      // site 1 is committed: it never moves
      assert.equal(va[i], 0);
      assert.equal(ma[i], y1.toArray()[i]);
      continue;
    }
    const se = Math.sqrt((va[i]! + vb[i]!) / N);
    assert.ok(Math.abs(ma[i]! - mb[i]!) < 4 * se, `mean ${i}: ${ma[i]} vs ${mb[i]}`);
    const seVar = vb[i]! * Math.sqrt(4 / (N - 1));
    assert.ok(Math.abs(va[i]! - vb[i]!) < 4 * seVar, `variance ${i}: ${va[i]} vs ${vb[i]}`);
  }
  // Row 0 moves; row 1 has no active site; row 2 has s = t; row 3 an empty path.
  const ys = new torch.TorchGenerator(5).randn([4, 3, 2], 'float64');
  const committed = torch.tensor([0, 1, 0, 1, 1, 1, 0, 0, 1, 0, 0, 0], [4, 3], 'bool');
  const out = reverseSdeMoveAlong(
    ctx,
    { y: ys, committed, tokens: torch.zeros([4, 3], 'int64') },
    new torch.TorchGenerator(4).randn([4, 3, 3]),
    [path, path, [0.4, 0.4], [0.4]],
    stepGenerator(1, 0),
  );
  const rest = torch.tensor([1, 2, 3], [3], 'int64');
  assert.ok(out.indexSelect(0, rest).equal(ys.indexSelect(0, rest)), 'rows 1, 2 and 3 stay');
  assert.ok(!out.select(0, 0).equal(ys.select(0, 0)), 'row 0 moved');
  // At eta < 1 substeps go one by one: rows sharing (t, s) move exactly as the one-time step.
  const quad = { ...ctx, process: P.makeProcess('sjd', { length: 3, eta: 0.5 }) };
  const two = torch.tensor([0, 1], [2], 'int64');
  const logits = new torch.TorchGenerator(4).randn([4, 3, 3]);
  const st = { y: ys, committed, tokens: torch.zeros([4, 3], 'int64') };
  const one = reverseSdeMove(
    quad,
    {
      y: ys.indexSelect(0, two),
      committed: committed.indexSelect(0, two),
      tokens: torch.zeros([2, 3], 'int64'),
    },
    logits.indexSelect(0, two),
    0.6,
    0.5,
    stepGenerator(1, 0),
  );
  const grouped = reverseSdeMoveAlong(
    quad,
    st,
    logits,
    [[0.6, 0.5], [0.6, 0.5], [0.3, 0.3], [0.2]],
    stepGenerator(1, 0),
  );
  assert.ok(grouped.indexSelect(0, two).equal(one), 'eta < 1: rows 0 and 1 as the one-time step');
  const still = torch.tensor([2, 3], [2], 'int64');
  assert.ok(
    grouped.indexSelect(0, still).equal(ys.indexSelect(0, still)),
    'eta < 1: rows 2, 3 stay',
  );
  assert.ok(
    out.select(0, 0).select(0, 1).equal(ys.select(0, 0).select(0, 1)),
    'its committed site did not',
  );
});

test('substeps of the move: from t down to s, each with beta(t_k) (t_k - t_k+1) <= c sigma^2(t_k)', () => {
  const proc = P.makeProcess('hybrid', { length: 3 });
  for (const [t, s, c] of [
    [1, 0.5, 0.5],
    [0.3, 0.01, 0.5],
    [0.05, 0.04, 0.25],
    [0.6, 0.5, 1000],
  ] as const) {
    const ts = substepTimes(proc, t, s, c);
    assert.equal(ts[0], t);
    assert.equal(ts.at(-1), s);
    for (let k = 0; k + 1 < ts.length; k++) {
      const x = ts[k]!;
      assert.ok(ts[k + 1]! < x);
      assert.ok(proc.vp.beta(x) * (x - ts[k + 1]!) <= c * proc.vp.sigma2(x) * (1 + 1e-12));
    }
    if (c === 1000) assert.equal(ts.length, 2, 'one substep when the step is small');
  }
});

test('the model denoiser takes one time per row: the same logits as each row at its own time', () => {
  const L = 4;
  const model = new Model(
    {
      length: L,
      classes: 3,
      anchorDim: 2,
      anchors: 'frozen',
      width: 8,
      depth: 1,
      heads: 2,
      mlpHidden: 16,
    },
    new torch.TorchGenerator(0),
  );
  const den = modelClassifier(model);
  const y = new torch.TorchGenerator(1).randn([3, L, 2]);
  const committed = torch.tensor([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], [3, L], 'bool');
  const t = new Float64Array([0.9, 0.3, 0.05]);
  const rows = den(y, t, committed); // [3, L, 3]
  for (let b = 0; b < 3; b++) {
    const idx = torch.tensor([b], [1], 'int64');
    const one = den(y.indexSelect(0, idx), t[b]!, committed.indexSelect(0, idx));
    assert.ok(rows.indexSelect(0, idx).sub(one).abs().amax().item() < 1e-5, `row ${b}`);
  }
  assert.ok(den(y, new Float64Array(3).fill(0.3), committed).equal(den(y, 0.3, committed)));
  assert.throws(
    () => den(y, new Float64Array(2), committed),
    /per-row times must have one entry per row \(3\), got 2/,
  );
});

test('exact posterior: on a law supported on the 6 permutations of 3 tokens, every adaptive output is a permutation, with and without a clue', () => {
  const perms = makeToy(
    3,
    3,
    ORACLE_TOY.anchors.toArray().reduce<number[][]>((a, v, k) => {
      if (k % 2 === 0) a.push([v]);
      else a.at(-1)!.push(v);
      return a;
    }, []),
    (x) => (new Set(x).size === 3 ? 1 + x[0]! : 0),
  );
  for (const proc of [
    P.makeProcess('hybrid', { length: 3 }),
    P.makeProcess('masked', { length: 3 }),
  ]) {
    for (const clue of [false, true]) {
      const B = 2000;
      const r = sample({
        ...SETTINGS,
        process: proc,
        classifier: oracleClassifier(proc, perms),
        anchors: perms.anchors,
        batch: B,
        length: 3,
        nfe: 8,
        seed: 5,
        sampler: 'adaptive' as const,
        condition: clue
          ? {
              tokens: torch.full([B, 3], 2, 'int64'),
              mask: torch.tensor(
                Array.from({ length: B * 3 }, (_, k) => (k % 3 === 1 ? 1 : 0)),
                [B, 3],
                'bool',
              ),
            }
          : undefined,
      });
      const x = r.tokens.toArray();
      const seen = new Set<string>();
      for (let b = 0; b < B; b++) {
        const row = x.slice(3 * b, 3 * b + 3);
        assert.equal(new Set(row).size, 3, `${proc.config.name}: row ${b} = ${row}`);
        if (clue) assert.equal(row[1], 2);
        seen.add(row.join(''));
      }
      assert.ok(Math.max(...r.rowNfe) <= 3, 'at most one step per blank');
      console.log(`# ${proc.config.name}${clue ? ', clue' : ''}: ${seen.size} permutations seen`);
    }
  }
});
