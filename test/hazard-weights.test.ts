// Frozen frequency-keyed hazard weights (app:e2e-hazard, tab:frozen-hazard): the
// normalisation sum_a p0(a) w(a) = 1 for every gamma, w proportional to freq^gamma (ratios in
// closed form), gamma = 0 exactly uniform, the spread a gamma from gammaForSpread gives, the
// direction of each sign, unseen tokens, and one-line refusals of bad input. End to end through
// `sjd train text --hazard-weights`: freq:0 trains the uniform run's weights bit for bit, freq:GAMMA
// stores w from the corpus counts (normalised under them) and the saved model's process has them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  frequencyHazardWeights,
  gammaForSpread,
  hazardWeightsOf,
  parseHazardWeights,
} from '../src/process/index.js';
import { loadCorpus, textShape, tokenCounts } from '../src/tasks/text/index.js';
import { loadTransformer } from '../src/train/index.js';
import { sjd } from './serve-fixture.js';
import { tempDir } from './tmp.js';

// character counts of a small text8-like sample: space most common, one letter unseen
const counts = [
  812, 149, 278, 425, 1270, 222, 201, 609, 697, 15, 77, 403, 241, 675, 751, 193, 9, 599, 633, 906,
  276, 98, 236, 15, 197, 0, 1800,
];
const N = counts.reduce((s, c) => s + c, 0);
const p0 = counts.map((c) => c / N);

test('sum_a p0(a) w(a) = 1 and w(a) / w(b) = (c(a) / c(b))^gamma', () => {
  for (const gamma of [-1.3, -0.5, -0.1, 0.1, 0.5, 1, 2]) {
    const w = frequencyHazardWeights(counts, gamma);
    const mean = p0.reduce((s, p, a) => s + p * w[a]!, 0);
    assert.ok(Math.abs(mean - 1) < 1e-12, `gamma ${gamma}: sum p0 w = ${mean}`);
    const r = w[4]! / w[9]!; // 'e' (1270) against 'j' (15)
    assert.ok(Math.abs(r / (1270 / 15) ** gamma - 1) < 1e-12, `gamma ${gamma}: ratio ${r}`);
  }
});

test('gamma = 0 is the uniform schedule exactly (the plumbing check of tab:frozen-hazard)', () => {
  const w = frequencyHazardWeights(counts, 0);
  assert.deepEqual(Array.from(w), new Array(counts.length).fill(1));
});

test('gammaForSpread: the spread asked for, in each direction', () => {
  for (const spread of [2, 4]) {
    for (const sign of [1, -1] as const) {
      const gamma = gammaForSpread(counts, spread, sign);
      assert.equal(Math.sign(gamma), sign);
      const w = Array.from(frequencyHazardWeights(counts, gamma));
      const got = Math.max(...w) / Math.min(...w);
      assert.ok(Math.abs(got - spread) < 1e-9, `spread ${spread}, sign ${sign}: ${got}`);
      // frequency-keyed: the commonest token (space) has the highest hazard; anti: the lowest
      const space = w[26]!;
      assert.equal(space, sign > 0 ? Math.max(...w) : Math.min(...w));
    }
  }
  assert.equal(gammaForSpread(counts, 1, 1), 0);
});

test('--hazard-weights specs: uniform, freq:GAMMA and the spreads of tab:frozen-hazard', () => {
  assert.equal(hazardWeightsOf('uniform', counts), null);
  assert.deepEqual(
    hazardWeightsOf('freq:0.5', counts),
    Array.from(frequencyHazardWeights(counts, 0.5)),
  );
  for (const [spec, sign] of [
    ['freq-spread:4', 1],
    ['anti-spread:2', -1],
  ] as const) {
    const w = hazardWeightsOf(spec, counts)!;
    const spread = Number(spec.split(':')[1]);
    assert.ok(Math.abs(Math.max(...w) / Math.min(...w) - spread) < 1e-9, spec);
    assert.equal(w[26], sign > 0 ? Math.max(...w) : Math.min(...w), spec);
  }
  assert.deepEqual(parseHazardWeights('anti-spread:2'), { kind: 'spread', spread: 2, sign: -1 });
  for (const bad of ['freq:', 'freq:x', 'spread:2', 'anti-spread:0.5', 'Uniform'])
    assert.throws(
      () => parseHazardWeights(bad),
      /expected uniform, freq:GAMMA, freq-spread:S, anti-spread:S \(S >= 1\), learned-bounded or learned-uniform-ce/,
    );
});

test('an unseen token takes the weight of the rarest seen one', () => {
  const w = frequencyHazardWeights(counts, -0.7);
  assert.equal(w[25], w[16]); // 'z' unseen, 'q' the rarest seen (9)
  assert.ok(Number.isFinite(w[25]!));
});

test('bad input is refused in one line', () => {
  assert.throws(() => frequencyHazardWeights([1, -2, 3], 1), /^Error: token counts: entry 1 is -2/);
  assert.throws(() => frequencyHazardWeights([1, 2.5], 1), /not a non-negative integer/);
  assert.throws(() => frequencyHazardWeights([0, 0], 1), /all zero/);
  assert.throws(() => frequencyHazardWeights([1, 2], Number.NaN), /gamma must be finite/);
  assert.throws(() => gammaForSpread([1, 2], 0.5, 1), /spread must be at least 1/);
  assert.throws(() => gammaForSpread([5, 5, 0], 2, 1), /equally often/);
});

test('sjd train text --hazard-weights: freq:0 is the uniform run bit for bit; freq:GAMMA is stored and loaded', () => {
  const dir = tempDir('sjd-hazard-');
  const run = (name: string, ...flags: string[]) => {
    const out = join(dir, name);
    const r = sjd(
      'train',
      'text',
      '--size',
      'tiny',
      '--steps',
      '4',
      '--process',
      'hybrid',
      '--out',
      out,
      ...flags,
    );
    assert.equal(r.status, 0, r.stderr);
    return out;
  };
  const ema = (out: string) => readFileSync(join(out, 'checkpoint', 'ema.safetensors'));
  const uniform = run('uniform');
  const zero = run('zero', '--hazard-weights', 'freq:0');
  assert.ok(ema(uniform).equals(ema(zero)), 'freq:0 trains the uniform weights');
  const half = run('half', '--hazard-weights', 'freq:0.5');
  assert.ok(!ema(uniform).equals(ema(half)), 'freq:0.5 trains other weights');
  const m = loadTransformer(half, textShape, 'text');
  const w = m.process.config.anchorWeights!;
  const counts = tokenCounts(loadCorpus().train);
  const total = counts.reduce((a, c) => a + c, 0);
  const mean = counts.reduce((a, c, k) => a + (c / total) * w[k]!, 0);
  assert.ok(Math.abs(mean - 1) < 1e-12, `sum p0 w = ${mean}`);
  assert.equal(m.config.process.hazardWeights, 'freq:0.5');
  assert.ok(w[26]! > w[4]!, 'space, the commonest character, has the highest hazard at gamma > 0');
  /** A one-step tiny run with these flags that must be refused. */
  const refused = (...flags: string[]) => {
    const out = join(dir, `refused-${flags.join('-')}`);
    const r = sjd('train', 'text', '--size', 'tiny', '--steps', '1', '--out', out, ...flags);
    assert.notEqual(r.status, 0);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    return r.stderr;
  };
  assert.match(
    refused('--hazard-weights', 'freq:x'),
    /hazard weights 'freq:x': expected uniform, freq:GAMMA/,
  );
  const masked = { stderr: refused('--process', 'masked', '--hazard-weights', 'freq:0.5') };
  assert.match(masked.stderr, /the masked process's sampler has one hazard for every token/);
});
