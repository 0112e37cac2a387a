// Seeded draws: PyTorch's numbers for the same seed, exact replay from a saved state, and
// statistical checks (fixed seeds, 5-sigma bounds) of the samplers' laws.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as torch from '../src/torch/index.js';

const near = (a: number[], b: number[], tol: number) =>
  a.forEach((x, i) => {
    assert.ok(Math.abs(x - b[i]!) < tol, `${x} vs ${b[i]}`);
  });

test('same seed gives PyTorch CPU numbers (torch.manual_seed(42); torch.randn(3); seed 0 rand(2))', () => {
  near(new torch.TorchGenerator(42).randn([3]).toArray(), [0.3367, 0.1288, 0.2345], 1e-4);
  near(new torch.TorchGenerator(0).rand([2]).toArray(), [0.4963, 0.7682], 1e-4);
});

test('a generator state restores the exact sequence', () => {
  const g = new torch.TorchGenerator(123);
  g.randn([10]);
  const state = g.getState();
  const a = g.randn([5], 'float64').toArray();
  const b = g.randint(0, 100, [5]).toArray();
  g.setState(state);
  assert.deepEqual(g.randn([5], 'float64').toArray(), a);
  assert.deepEqual(g.randint(0, 100, [5]).toArray(), b);
  assert.throws(() => g.setState(torch.zeros([3], 'uint8')), /RNG state|size/i);
});

test('bernoulli(p) mean within 5 sigma over 200k draws', () => {
  const n = 200_000;
  const m = new torch.TorchGenerator(5)
    .bernoulli(torch.full([n], 0.3, 'float64'))
    .mean()
    .item();
  assert.ok(Math.abs(m - 0.3) < 5 * Math.sqrt(0.21 / n), `mean ${m}`);
});

test('multinomial on float64 weights matches the law (5 sigma per category)', () => {
  const p = [0.05, 0.15, 0.3, 0.5];
  const n = 200_000;
  const draws = new torch.TorchGenerator(9).multinomial(
    torch.tensor(
      p.map((x) => x * 7),
      [4],
      'float64',
    ),
    n,
    true,
  );
  const counts = torch
    .zeros([4], 'int64')
    .scatterAdd(0, draws, torch.ones([n], 'int64'))
    .toArray();
  counts.forEach((c, k) => {
    assert.ok(
      Math.abs(c / n - p[k]!) < 5 * Math.sqrt((p[k]! * (1 - p[k]!)) / n),
      `cat ${k}: ${c / n}`,
    );
  });
  // Rows are independent categorical draws.
  const rows = new torch.TorchGenerator(1).multinomial(
    torch.tensor([0, 1, 1, 0], [2, 2], 'float64'),
    1,
  );
  assert.deepEqual(rows.toArray(), [1, 0]);
});

test('randint stays in range and covers it; randperm is a permutation', () => {
  const r = new torch.TorchGenerator(2).randint(-3, 4, [10_000]).toArray();
  assert.equal(Math.min(...r), -3);
  assert.equal(Math.max(...r), 3);
  const p = new torch.TorchGenerator(2).randperm(100).toArray();
  assert.deepEqual(
    [...p].sort((a, b) => a - b),
    Array.from({ length: 100 }, (_, i) => i),
  );
});

test('dropout zeroes a fraction p and keeps the mean (5 sigma); eval mode is the identity', () => {
  const n = 100_000;
  const x = torch.ones([n], 'float64');
  const y = torch.dropout(x, 0.25, true, new torch.TorchGenerator(4));
  const zeros = y.eq(0).to('float64').mean().item();
  assert.ok(Math.abs(zeros - 0.25) < 5 * Math.sqrt((0.25 * 0.75) / n));
  assert.ok(Math.abs(y.mean().item() - 1) < 5 * Math.sqrt(1 / 3 / n) * 1.5);
  assert.ok(torch.dropout(x, 0.25, false, new torch.TorchGenerator(4)).equal(x));
});
