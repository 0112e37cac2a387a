// The confidence policy (src/sampling/confidence-step.ts) on stub denoisers with known logits:
// exactly round(#active (t - s) / t) active sites commit per non-final step and row, the most
// confident ones, each to its argmax; the final step fills every remaining site; conditioned
// sites never change; the NFE spent is 2 a step and 1 on the fill step, as the driver reports.
// The temperature acts as Alg. 2's: only through logits / temperature, so temperature 1 is the
// untempered policy (golden values from the code before the temperature was read), a low
// temperature reorders the confidence ranking as softmax(l / T) predicts, and moves the drift
// by beta dt alpha (m_cold - m_warm) / sigma^2.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as P from '../src/process/index.js';
import { type Classifier, confidenceStep, sample, stepGenerator } from '../src/sampling/index.js';
import * as torch from '../src/torch/index.js';
import { ORACLE_TOY, ORACLE_W, oracleClassifier } from './oracle.js';
import { SETTINGS } from './settings.js';

const toy = ORACLE_TOY; // K = 3 anchors in d = 2

/** torch.round: half to even. */
const roundHalfEven = (x: number): number => {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
};

/** A stub classifier: the same logits [B, L, K] whatever the state; counts its calls. */
function stub(logits: torch.Tensor): { classifier: Classifier; calls: () => number } {
  const kept = torch.keep(logits);
  let n = 0;
  return {
    classifier: () => {
      n++;
      return kept.clone();
    },
    calls: () => n,
  };
}

test('confidence policy: round(#active (t - s) / t) most confident active sites commit per step and row, to their argmax; the fill step ends it; clues stay; NFE 2 a step, 1 on the fill step', () => {
  const [B, L, K] = [4, 12, 3];
  const proc = P.makeProcess('hybrid', { length: L });
  const logits = new torch.TorchGenerator(11).randn([B, L, K]).mul(2); // [B, L, K] float32, no ties
  const l = logits.toArray();
  const conf = (b: number, i: number) => {
    const z = l.slice((b * L + i) * K, (b * L + i + 1) * K);
    const m = Math.max(...z);
    return 1 / z.reduce((s, v) => s + Math.exp(v - m), 0);
  };
  const argmax = (b: number, i: number) => {
    const z = l.slice((b * L + i) * K, (b * L + i + 1) * K);
    return z.indexOf(Math.max(...z));
  };
  // Rows with 0, 3, 7 and 11 clues.
  const clues = [0, 3, 7, 11];
  const mask = Array.from({ length: B * L }, (_, k) => (k % L < clues[(k / L) | 0]! ? 1 : 0));
  const clueTokens = Array.from({ length: B * L }, (_, k) => (k * 7) % K);
  for (const [nfe, steps] of [
    [10, 5],
    [11, 5],
    [16, 8],
    [2, 1],
  ] as const) {
    const s = stub(logits);
    const r = sample({
      ...SETTINGS,
      process: proc,
      classifier: s.classifier,
      anchors: toy.anchors,
      batch: B,
      length: L,
      nfe,
      seed: 4,
      sampler: 'confidence' as const,
      condition: {
        tokens: torch.tensor(clueTokens, [B, L], 'int64'),
        mask: torch.tensor(mask, [B, L], 'bool'),
      },
      record: true,
    });
    assert.equal(s.calls(), 2 * (steps - 1) + 1, `NFE ${nfe}: classifier calls`);
    assert.equal(r.nfe, s.calls(), `NFE ${nfe}: the driver's count`);
    const tr = r.trajectory!;
    assert.equal(tr.length, steps + 1);
    let committedSomewhere = 0;
    for (let i = 0; i < steps; i++) {
      const [a, b] = [tr[i]!, tr[i + 1]!];
      for (let row = 0; row < B; row++) {
        const sites = [...Array(L).keys()];
        const active = sites.filter((j) => !a.committed[row * L + j]);
        const fresh = sites.filter((j) => !a.committed[row * L + j] && b.committed[row * L + j]);
        const want =
          i === steps - 1 ? active.length : roundHalfEven(active.length * ((a.t - b.t) / a.t));
        assert.equal(fresh.length, want, `NFE ${nfe} step ${i} row ${row}`);
        committedSomewhere += fresh.length;
        // The fresh ones are the most confident active sites, each on its argmax.
        const ranked = active.slice().sort((p, q) => conf(row, q) - conf(row, p));
        assert.deepEqual(
          fresh,
          ranked.slice(0, want).sort((p, q) => p - q),
        );
        for (const j of fresh) assert.equal(b.tokens[row * L + j], argmax(row, j));
        for (const j of sites) {
          if (a.committed[row * L + j]) {
            assert.equal(b.committed[row * L + j], 1, 'committed sites stay committed');
            assert.equal(b.tokens[row * L + j], a.tokens[row * L + j], 'and frozen');
          }
          if (mask[row * L + j]) assert.equal(b.tokens[row * L + j], clueTokens[row * L + j]);
        }
      }
    }
    assert.ok(committedSomewhere > 0);
    assert.equal(
      tr.at(-1)!.committed.reduce((n, c) => n + c, 0),
      B * L,
      'all filled',
    );
    const tokens = r.tokens.toArray();
    mask.forEach((m, k) => {
      if (m) assert.equal(tokens[k], clueTokens[k], 'clues never change');
    });
  }
});

test('confidence policy at temperature 1 is the untempered policy (golden values of the same seed)', () => {
  // Recorded from commit 9e30e77 (the confidence step ignored --temperature then) and held to
  // 74e8980; re-recorded when the move's noise came to be drawn at active sites only
  // (sampling/site-draws.ts: a shorter stream, the same law), and again when the state at
  // eta = 1 went to float32 with float32 draws (sampling/state.ts stateDtype: another stream, the
  // same law).
  const golden = [
    [
      P.makeProcess('hybrid', { length: 3 }),
      [0, 2, 1, 1, 2, 1, 1, 0, 1, 0, 0, 1, 0, 2, 1, 2, 0, 1],
      [22.352063, 28.88184, 38.549702, 32.837155, 21.194285],
    ],
    [
      P.makeProcess('sjd', { length: 3, blend: ORACLE_W }),
      [0, 2, 1, 1, 2, 1, 1, 0, 2, 1, 0, 1, 0, 2, 1, 2, 0, 1],
      [22.352063, 28.875553, 38.589233, 36.827115, 21.160475],
    ],
  ] as const;
  for (const [proc, tokens, yNorms] of golden) {
    {
      const r = sample({
        ...SETTINGS,
        process: proc,
        classifier: oracleClassifier(proc, toy),
        anchors: toy.anchors,
        batch: 6,
        length: 3,
        nfe: 8,
        seed: 5,
        sampler: 'confidence' as const,
        record: true,
      });
      assert.deepEqual(r.tokens.toArray(), tokens);
      const sums = r.trajectory!.map((s) => s.yNorm.reduce((a, b) => a + b, 0));
      sums.forEach((v, k) => {
        assert.ok(Math.abs(v - yNorms[k]!) < 1e-4, `step ${k}: ${v}`);
      });
    }
  }
});

test('confidence policy: temperature T on logits l is temperature 1 on l / T (the same commits; y to float32 rounding of the posterior mean)', () => {
  const proc = P.makeProcess('hybrid', { length: 3 });
  const exact = oracleClassifier(proc, toy);
  for (const T of [0.3, 2]) {
    const base = {
      process: proc,
      anchors: toy.anchors,
      batch: 32,
      length: 3,
      nfe: 12,
      seed: 8,
      sampler: 'confidence' as const,
      record: true,
    };
    const hot = sample({ ...SETTINGS, ...base, classifier: exact, temperature: T });
    const scaled = sample({
      ...SETTINGS,
      ...base,
      classifier: (y, t, c) => exact(y, t, c).to('float64').div(T),
      temperature: 1,
    });
    const plain = sample({ ...SETTINGS, ...base, classifier: exact, temperature: 1 });
    // The commits read float64 probabilities; the score's posterior mean is formed in float32
    // (reverse-sde.ts), where l / T rounds once in one run and twice in the other.
    assert.ok(hot.tokens.equal(scaled.tokens), `T = ${T}`);
    assert.ok(hot.y.sub(scaled.y).abs().amax().item() < 1e-5, `T = ${T}: y`);
    hot.trajectory!.forEach((h, k) => {
      const d = h.yNorm.reduce(
        (m, v, i) => Math.max(m, Math.abs(v - scaled.trajectory![k]!.yNorm[i]!)),
        0,
      );
      assert.ok(d < 1e-5, `T = ${T}, step ${k}: |y| off by ${d}`);
    });
    assert.notDeepEqual(
      hot.trajectory!.map((s) => [...s.yNorm]),
      plain.trajectory!.map((s) => [...s.yNorm]),
      'the temperature matters',
    );
  }
});

test('confidence policy: a low temperature reorders the ranking as softmax(l / T) predicts; the argmax stays', () => {
  // Site 0: l = (0.5, 0, 0): confidence 0.452 at T = 1, 0.987 at T = 0.1.
  // Site 1: l = (0.01, 0, -30): confidence 0.5025 at any T <= 1 (the third anchor is out).
  // Site 2: l = (0, 0, 0): confidence 1/3. From t = 0.6 to s = 0.45, round(3 * 0.25) = 1 commits.
  const proc = P.makeProcess('hybrid', { length: 3 });
  const logits = torch.tensor([0.5, 0, 0, 0.01, 0, -30, 0, 0, 0], [1, 3, 3]);
  const state = {
    y: torch.zeros([1, 3, 2], 'float64'),
    committed: torch.zeros([1, 3], 'bool'),
    tokens: torch.zeros([1, 3], 'int64'),
  };
  const step = (temperature: number) =>
    confidenceStep(
      { process: proc, classifier: () => logits, anchors: toy.anchors, temperature, topP: 1 },
      state,
      0.6,
      0.45,
      false,
      stepGenerator(1, 0),
    );
  const warm = step(1);
  const cold = step(0.1);
  assert.deepEqual(warm.committed.toArray(), [0, 1, 0]);
  assert.deepEqual(cold.committed.toArray(), [1, 0, 0]);
  assert.equal(warm.tokens.toArray()[1], 0);
  assert.equal(cold.tokens.toArray()[0], 0);
});

test('confidence policy: the temperature tempers the drift: y_cold - y_warm = beta dt alpha (m_cold - m_warm) / sigma^2', () => {
  // From t = 0.6 to s = 0.55 round(3 * 0.05 / 0.6) = 0 sites commit, so both passes see y = 0
  // and the same generator; only the posterior mean m = sum_a softmax(l / T)_a E(a) differs.
  const proc = P.makeProcess('hybrid', { length: 3 });
  const l = [0.5, 0, -0.3];
  const logits = torch.tensor([...l, ...l, ...l], [1, 3, 3]);
  const state = {
    y: torch.zeros([1, 3, 2], 'float64'),
    committed: torch.zeros([1, 3], 'bool'),
    tokens: torch.zeros([1, 3], 'int64'),
  };
  const [t, s] = [0.6, 0.55];
  const step = (temperature: number) =>
    confidenceStep(
      { process: proc, classifier: () => logits, anchors: toy.anchors, temperature, topP: 1 },
      state,
      t,
      s,
      false,
      stepGenerator(3, 0),
    );
  const warm = step(1);
  const cold = step(0.05);
  assert.equal(warm.committed.any().item() + cold.committed.any().item(), 0);
  const mean = (T: number) =>
    logits.select(1, 0).to('float64').div(T).softmax(-1).matmul(toy.anchors); // [1, 2]
  const expected = mean(0.05)
    .sub(mean(1))
    .mul((proc.vp.beta(t) * (t - s) * proc.vp.alpha(t)) / proc.vp.sigma2(t)); // [1, 2]
  const err = cold.y.sub(warm.y).sub(expected.unsqueeze(0)).abs().amax().item();
  // m is formed from float32 probabilities (reverse-sde.ts): float32 rounding, ~1e-7 relative.
  assert.ok(err < 1e-7 && expected.abs().amax().item() > 0.01, `drift difference off by ${err}`);
});
