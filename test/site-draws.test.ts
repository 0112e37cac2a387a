// Draws at the sites that need them (src/sampling/site-draws.ts): a choice only at the marked
// sites, in row-major order, zeros elsewhere and no call when no site is marked; Gaussian noise
// N(0, 1) at the marked sites (moments over 60,000 numbers, 4 sigma), exactly 0 elsewhere, the
// same for the same seed; sitesOf picks the rows of the flattened [B * L] sites.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chooseAt, normalAt, sitesOf } from '../src/sampling/site-draws.js';
import * as torch from '../src/torch/index.js';

const mask = torch.tensor([0, 1, 1, 0, 0, 1], [2, 3], 'bool'); // sites 1, 2 and 5

test('chooseAt: the chosen tokens at the marked sites in row-major order, 0 elsewhere; no call without a site', () => {
  let seen: number[] = [];
  const out = chooseAt(mask, (idx) => {
    seen = idx.toArray();
    return idx.add(10); // token = flat index + 10
  });
  assert.deepEqual(seen, [1, 2, 5]);
  assert.deepEqual(out.shape, [2, 3]);
  assert.deepEqual(out.toArray(), [0, 11, 12, 0, 0, 15]);
  let called = false;
  const none = chooseAt(torch.zeros([2, 3], 'bool'), (idx) => {
    called = true;
    return idx;
  });
  assert.equal(called, false);
  assert.deepEqual(none.toArray(), [0, 0, 0, 0, 0, 0]);
});

test('sitesOf: the rows of x [B, L, K] at flat site indices', () => {
  const x = torch.arange(0, 12).view([2, 3, 2]);
  const rows = sitesOf(x, torch.tensor([1, 5], [2], 'int64'));
  assert.deepEqual(rows.shape, [2, 2]);
  assert.deepEqual(rows.toArray(), [2, 3, 10, 11]);
});

test('normalAt: N(0, 1) float32 at the marked sites (60,000 numbers, 4 sigma), exactly 0 elsewhere, reproducible', () => {
  const big = new torch.TorchGenerator(3).rand([300, 100]).lt(0.5); // [300, 100], about half marked
  const d = 4;
  const xi = normalAt(big, d, new torch.TorchGenerator(7)); // [300, 100, 4]
  assert.deepEqual(xi.shape, [300, 100, d]);
  assert.equal(xi.dtype, 'float32');
  const off = xi.maskedFill(big.unsqueeze(-1), 0);
  assert.equal(off.abs().amax().item(), 0, 'zero off the marked sites');
  const on = sitesOf(xi, big.flatten().nonzero().flatten()).flatten(); // [n d]
  const n = on.size(0);
  assert.ok(n > 50_000);
  const mean = on.mean().item();
  const variance = on.var().item();
  assert.ok(Math.abs(mean) < 4 / Math.sqrt(n), `mean ${mean}`);
  assert.ok(Math.abs(variance - 1) < 4 * Math.sqrt(2 / n), `variance ${variance}`);
  assert.ok(normalAt(big, d, new torch.TorchGenerator(7)).equal(xi), 'same seed, same noise');
  assert.equal(
    normalAt(torch.zeros([2, 3], 'bool'), d, new torch.TorchGenerator(7))
      .abs()
      .sum()
      .item(),
    0,
  );
});
