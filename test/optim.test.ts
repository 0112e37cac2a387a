// libtorch's AdamW and SGD against their closed forms, per-step learning rates, weight-decay
// groups, gradient clipping, and exact resume from saved optimiser state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as torch from '../src/torch/index.js';

const close = (a: number[], b: number[], tol = 1e-12) =>
  a.forEach((x, i) => {
    assert.ok(Math.abs(x - b[i]!) <= tol, `${x} vs ${b[i]}`);
  });

// loss = sum(c * p): gradient c
function stepOnce(opt: torch.Optimizer, p: torch.Tensor, c: number[], lr?: number) {
  opt.zeroGrad();
  p.mul(torch.tensor(c, [c.length], 'float64'))
    .sum()
    .backward();
  opt.step(lr);
}

test('AdamW: two steps equal the closed form (bias-corrected moments, decoupled decay)', () => {
  const p0 = [1, -2, 0.5];
  const c = [0.3, -1, 2];
  const [lr, wd, b1, b2, eps] = [0.1, 0.01, 0.9, 0.999, 1e-8];
  const p = torch.tensor(p0, [3], 'float64').requiresGrad_(true);
  const opt = new torch.AdamW([p], { lr, weightDecay: wd, beta1: b1, beta2: b2, eps });
  stepOnce(opt, p, c);
  stepOnce(opt, p, c);
  const want = p0.map((x, i) => {
    let v = x;
    let m = 0;
    let s = 0;
    for (let t = 1; t <= 2; t++) {
      v *= 1 - lr * wd;
      m = b1 * m + (1 - b1) * c[i]!;
      s = b2 * s + (1 - b2) * c[i]! ** 2;
      v -= (lr * (m / (1 - b1 ** t))) / (Math.sqrt(s / (1 - b2 ** t)) + eps);
    }
    return v;
  });
  close(p.toArray(), want);
});

test('per-step learning rate: lr 0 leaves parameters unchanged', () => {
  const p = torch.tensor([1, 2], [2], 'float64').requiresGrad_(true);
  const opt = new torch.AdamW([p], { lr: 0.5, weightDecay: 0 });
  stepOnce(opt, p, [1, 1], 0);
  assert.deepEqual(p.toArray(), [1, 2]);
  stepOnce(opt, p, [1, 1], 0.5);
  assert.ok(p.toArray()[0]! < 1);
});

test('weight-decay groups: a group with weightDecay 0 is not decayed', () => {
  const a = torch.tensor([1], [1], 'float64').requiresGrad_(true);
  const b = torch.tensor([1], [1], 'float64').requiresGrad_(true);
  const opt = new torch.AdamW([{ params: [a] }, { params: [b], weightDecay: 0 }], {
    lr: 0.1,
    weightDecay: 0.5,
  });
  opt.zeroGrad();
  a.mul(0).add(b.mul(0)).sum().backward();
  opt.step();
  close(a.toArray(), [0.95]);
  close(b.toArray(), [1]);
});

test('SGD with momentum equals the closed form', () => {
  const p = torch.tensor([1], [1], 'float64').requiresGrad_(true);
  const opt = new torch.SGD([p], { lr: 0.1, momentum: 0.9 });
  stepOnce(opt, p, [2]);
  stepOnce(opt, p, [2]);
  close(p.toArray(), [1 - 0.1 * 2 - 0.1 * (0.9 * 2 + 2)]);
});

test('clipGradNorm scales to the bound and returns the norm before clipping', () => {
  const a = torch.tensor([0], [1], 'float64').requiresGrad_(true);
  const b = torch.tensor([0], [1], 'float64').requiresGrad_(true);
  a.mul(3).add(b.mul(4)).sum().backward();
  assert.equal(torch.clipGradNorm([a, b], 1).item(), 5);
  close([a.grad!.item(), b.grad!.item()], [3 / (5 + 1e-6), 4 / (5 + 1e-6)]); // libtorch divides by norm + 1e-6
  assert.throws(() => torch.clipGradNorm([a], 0), /maxNorm must be > 0/);
});

test('saved optimiser state resumes exactly', () => {
  const run = (steps: number, p: torch.Tensor, opt: torch.Optimizer) => {
    for (let i = 0; i < steps; i++) stepOnce(opt, p, [Math.sin(i), Math.cos(i)], 0.05 * (i + 1));
  };
  const p = torch.tensor([0.5, -0.5], [2], 'float64').requiresGrad_(true);
  const opt = new torch.AdamW([p]);
  run(3, p, opt);
  const saved = { p: p.detach().clone(), state: opt.getState() };
  assert.equal(saved.state[0]!.step, 3);
  run(2, p, opt);
  const q = saved.p.clone().requiresGrad_(true);
  const opt2 = new torch.AdamW([q]);
  opt2.setState(saved.state);
  run(2, q, opt2);
  assert.ok(q.equal(p), `${q.toArray()} vs ${p.toArray()}`);
  assert.throws(() => opt2.setState([]), /fewer entries than parameters/);
});
