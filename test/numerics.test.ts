// Softmax, log_softmax, logsumexp and cross_entropy at the edges: overflow, underflow, huge
// differences and NaN propagation (the tfjs op-test habit, docs/design.md §6), in float32 and float64.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DType } from '../src/torch/index.js';
import * as torch from '../src/torch/index.js';

const dtypes: DType[] = ['float32', 'float64'];
const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

for (const dt of dtypes) {
  const tol = dt === 'float32' ? 1e-6 : 1e-12;

  test(`softmax ${dt}: overflow-safe, underflow to exact 0, sums to 1`, () => {
    const p = torch.tensor([1000, 1000, 999], [3], dt).softmax(0).toArray();
    const e = Math.exp(-1);
    close(p[0]!, 1 / (2 + e), tol, 'p0');
    close(p[2]!, e / (2 + e), tol, 'p2');
    const q = torch.tensor([-1e4, 0, -1e4], [3], dt).softmax(0).toArray();
    assert.deepEqual(q, [0, 1, 0]);
    const big = torch.tensor([3e38, -3e38], [2], dt).softmax(0).toArray();
    assert.deepEqual(big, [1, 0]);
  });

  test(`log_softmax ${dt}: finite for huge differences, exact on overflow inputs`, () => {
    const l = torch.tensor([1e4, 0], [2], dt).logSoftmax(0).toArray();
    close(l[0]!, 0, tol, 'top');
    close(l[1]!, -1e4, 1e4 * tol, 'bottom');
    assert.ok(l.every(Number.isFinite));
    const m = torch.tensor([1000, 1000], [2], dt).logSoftmax(0).toArray();
    close(m[0]!, -Math.LN2, tol, 'tie');
  });

  test(`logsumexp ${dt}: no overflow, no underflow, -inf rows`, () => {
    close(
      torch.tensor([1000, 1000], [2], dt).logsumexp(0).item(),
      1000 + Math.LN2,
      1000 * tol,
      'overflow',
    );
    close(
      torch.tensor([-1000, -1000], [2], dt).logsumexp(0).item(),
      -1000 + Math.LN2,
      1000 * tol,
      'underflow',
    );
    close(torch.tensor([0, -1e30], [2], dt).logsumexp(0).item(), 0, tol, 'huge difference');
    assert.equal(torch.tensor([-Infinity, -Infinity], [2], dt).logsumexp(0).item(), -Infinity);
  });

  test(`NaN propagates through softmax, log_softmax, logsumexp, cross_entropy ${dt}`, () => {
    const x = torch.tensor([0, Number.NaN, 1], [1, 3], dt);
    assert.ok(x.softmax(1).toArray().every(Number.isNaN));
    assert.ok(x.logSoftmax(1).toArray().every(Number.isNaN));
    assert.ok(Number.isNaN(x.logsumexp(1).item()));
    assert.ok(Number.isNaN(torch.crossEntropy(x, torch.tensor([0], [1], 'int64')).item()));
    // A NaN in another row stays in its row.
    const rows = torch.tensor([0, 0, Number.NaN, 0], [2, 2], dt).softmax(1).toArray();
    assert.deepEqual(rows.slice(0, 2), [0.5, 0.5]);
  });

  test(`cross_entropy ${dt}: huge logits give exact losses, no inf`, () => {
    const logits = torch.tensor([1e4, 0, 0, 1e4], [2, 2], dt);
    const losses = torch
      .crossEntropy(logits, torch.tensor([0, 0], [2], 'int64'), { reduction: 'none' })
      .toArray();
    close(losses[0]!, 0, tol, 'right class');
    close(losses[1]!, 1e4, 1e4 * tol, 'wrong class');
    const tiny = torch
      .crossEntropy(torch.tensor([-1e30, 0], [1, 2], dt), torch.tensor([1], [1], 'int64'))
      .item();
    close(tiny, 0, tol, 'underflowing other class');
  });

  test(`cross_entropy ${dt}: all targets ignored gives NaN mean (PyTorch's 0/0), sum 0`, () => {
    const logits = torch.tensor([1, 2, 3, 4], [2, 2], dt);
    const t = torch.tensor([-100, -100], [2], 'int64');
    assert.ok(Number.isNaN(torch.crossEntropy(logits, t).item()));
    assert.equal(torch.crossEntropy(logits, t, { reduction: 'sum' }).item(), 0);
  });
}

test('cross_entropy gradient at huge logits is finite and equals softmax - onehot', () => {
  const x = torch.tensor([1e4, 0, -1e4], [1, 3], 'float64').requiresGrad_(true);
  torch.crossEntropy(x, torch.tensor([1], [1], 'int64')).backward();
  assert.deepEqual(x.grad!.toArray(), [1, -1, 0]);
});
