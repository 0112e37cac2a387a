// The SJD training loss (src/train/sjd-loss.ts; alg:sjd-training, eq:classifier-loss) against a
// hand computation: a stub model returns logits chosen here, so the loss must be the mean
// cross-entropy -log softmax(z_i)[x0_i] over the loss mask of Alg. 1 (src/process/corrupt.ts:
// positions neither stuck on their anchor nor conditioned) and 0 when the mask is empty; clues
// reach the model as stuck; the gradient is (softmax - onehot) / n on the mask and 0 off it.
// With deep supervision the loss is the mean of that over a looped network's loops, each loop's
// logits getting a third of the gradient of one (three loops).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Denoiser } from '../src/model/denoiser.js';
import * as P from '../src/process/index.js';
import * as torch from '../src/torch/index.js';
import { sjdLoss } from '../src/train/sjd-loss.js';

const K = 5; // anchors (classes)
const E = torch.eye(K).mul(2); // [K, d = K]

/** Logits z [B, L, K] chosen by hand: a smooth pattern, 6 nats against the target at clues. */
function logitsFor(x0: number[], clue: boolean[], B: number, L: number): Float32Array {
  const z = new Float32Array(B * L * K); // [B, L, K]
  for (let n = 0; n < B * L; n++)
    for (let k = 0; k < K; k++)
      z[n * K + k] = 2 * Math.sin(1.3 * n + 2.1 * k) - (clue[n] && k === x0[n] ? 6 : 0);
  return z;
}

/** -log softmax(z_n)[x0_n] in float64, for every position n. */
function crossEntropies(z: Float32Array, x0: number[]): number[] {
  return x0.map((a, n) => {
    const row = [...z.subarray(n * K, n * K + K)];
    const m = Math.max(...row);
    return m + Math.log(row.reduce((s, v) => s + Math.exp(v - m), 0)) - row[a]!;
  });
}

/** A Denoiser stand-in: anchors E, forward returns the leaf z and records what it was given. */
function stubModel(z: torch.Tensor) {
  const seen: { stuck?: number[]; t?: number[] } = {};
  const model = {
    anchors: { forward: () => E },
    forward: (_y: torch.Tensor, t: torch.Tensor, stuck: torch.Tensor) => {
      seen.stuck = stuck.toArray();
      seen.t = t.toArray();
      return z;
    },
  } as unknown as Denoiser;
  return { model, seen };
}

interface Case {
  proc: P.SJDProcess;
  x0: number[]; // [B * L]
  clue: boolean[]; // [B * L]
  t: number[]; // [B]
  L: number;
  seed: number;
}

/** sjdLoss on the case, with its value, the model's stuck input and dLoss/dz. */
function run(c: Case) {
  const B = c.t.length;
  const zData = logitsFor(c.x0, c.clue, B, c.L);
  const z = torch.tensor(zData, [B, c.L, K]).requiresGrad_();
  const { model, seen } = stubModel(z);
  const x0 = torch.tensor(c.x0, [B, c.L], 'int64');
  const condition = torch.tensor(c.clue.map(Number), [B, c.L], 'bool');
  const loss = sjdLoss(
    model,
    c.proc,
    x0,
    Float64Array.from(c.t),
    new torch.TorchGenerator(c.seed),
    condition,
  );
  loss.backward();
  const grad = [...(z.grad!.dataView() as Float32Array)];
  return { value: loss.item(), zData, stuck: seen.stuck!, t: seen.t!, grad, condition, x0 };
}

/** The hand value and gradient of the mean cross-entropy over `mask`. */
function expected(zData: Float32Array, x0: number[], mask: boolean[]) {
  const ce = crossEntropies(zData, x0);
  const n = mask.filter(Boolean).length;
  const value = n === 0 ? 0 : ce.reduce((s, v, i) => s + (mask[i] ? v : 0), 0) / n;
  const grad = new Array<number>(zData.length).fill(0);
  mask.forEach((on, i) => {
    if (!on) return;
    const row = [...zData.subarray(i * K, i * K + K)];
    const m = Math.max(...row);
    const Z = row.reduce((s, v) => s + Math.exp(v - m), 0);
    for (let k = 0; k < K; k++)
      grad[i * K + k] = (Math.exp(row[k]! - m) / Z - (k === x0[i] ? 1 : 0)) / n;
  });
  return { value, grad, ce };
}

const close = (a: number, b: number, tol: number, what: string) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);
const closeAll = (a: number[], b: number[], tol: number, what: string) => {
  assert.equal(a.length, b.length);
  for (let j = 0; j < a.length; j++) close(a[j]!, b[j]!, tol, `${what}[${j}]`);
};

const L = 8;
const X0 = [0, 1, 2, 3, 4, 0, 1, 2, 4, 3, 2, 1, 0, 4, 3, 2, 1, 3, 0, 2, 4, 1, 0, 3];
const CLUE = X0.map((_, n) => n % 3 === 0); // 8 of 24 positions conditioned

test('no stuck positions (instant unsticking): the loss is the mean cross-entropy over the non-clue positions', () => {
  const c: Case = {
    proc: P.makeProcess('continuous', { length: L }),
    x0: X0,
    clue: CLUE,
    t: [0.3, 0.6, 0.9],
    L,
    seed: 1,
  };
  const r = run(c);
  assert.deepEqual(r.stuck, CLUE.map(Number), 'clues reach the model as stuck, nothing else is');
  closeAll(r.t, c.t, 1e-7, 'the model is given t');
  const mask = CLUE.map((q) => !q);
  const e = expected(r.zData, X0, mask);
  close(r.value, e.value, 1e-5, 'loss');
  // the clues' 6-nat handicap would show: the loss over every position is far from it
  const all = e.ce.reduce((s, v) => s + v, 0) / e.ce.length;
  assert.ok(all - e.value > 1, `mean over all positions ${all} vs over the mask ${e.value}`);
  closeAll(r.grad, e.grad, 1e-6, 'dLoss/dz');
});

test("positions still stuck leave the loss as corrupt()'s lossMask says: u < S(t) on the anchor, or a clue", () => {
  const proc = P.makeProcess('hybrid', { length: L }); // S(t) = 1 - t (polynomial-alpha, p = 1)
  const c: Case = { proc, x0: X0, clue: CLUE, t: [0.2, 0.5, 0.8], L, seed: 11 };
  const r = run(c);
  // the code's own mask, from the same draws
  const { lossMask, stuck } = P.corrupt(
    proc,
    r.x0,
    E,
    Float64Array.from(c.t),
    new torch.TorchGenerator(c.seed),
    r.condition,
  );
  const mask = lossMask.toArray().map(Boolean);
  assert.deepEqual(stuck.toArray(), r.stuck, 'the model sees the same stuck positions');
  assert.deepEqual(
    mask,
    r.stuck.map((s) => !s),
    'loss mask = not stuck',
  );
  // ... and by hand: the first uniform draw of each position against the survival S(t_b)
  const u = new torch.TorchGenerator(c.seed).rand([3, L], 'float64').toArray();
  const byHand = u.map((v, n) => !CLUE[n] && !(v < P.survival(proc.hazard, c.t[(n / L) | 0]!)));
  assert.deepEqual(mask, byHand);
  const stuckFree = mask.filter((m, n) => !m && !CLUE[n]).length;
  const inLoss = mask.filter(Boolean).length;
  assert.ok(stuckFree >= 3 && inLoss >= 3, `${stuckFree} stuck non-clue, ${inLoss} in the loss`);
  const e = expected(r.zData, X0, mask);
  close(r.value, e.value, 1e-5, 'loss');
  closeAll(r.grad, e.grad, 1e-6, 'dLoss/dz');
});

test('an empty loss mask (t = 0: every position stuck) gives a loss of 0, not NaN, and no gradient', () => {
  const c: Case = {
    proc: P.makeProcess('hybrid', { length: L }),
    x0: X0,
    clue: CLUE,
    t: [0, 0, 0],
    L,
    seed: 3,
  };
  const r = run(c);
  assert.deepEqual(
    r.stuck,
    X0.map(() => 1),
  );
  assert.equal(r.value, 0);
  assert.ok(r.grad.every((g) => g === 0));
});

test("deep supervision: the mean over the loops of each loop's cross-entropy, each loop's logits a share of the gradient", () => {
  const proc = P.makeProcess('continuous', { length: L });
  const t = [0.3, 0.6, 0.9];
  const B = t.length;
  // three loops' logits, chosen by hand: the pattern shifted a little per loop
  const zs = [0, 1, 2].map((k) => {
    const d = logitsFor(X0, CLUE, B, L).map((v, i) => v + 0.7 * k * Math.cos(0.9 * i));
    return { data: d, z: torch.tensor(d, [B, L, K]).requiresGrad_() };
  });
  // a looped Denoiser stand-in: forwardEachLoop gives the three, forward the last
  const model = Object.assign(Object.create(Denoiser.prototype), {
    anchors: { forward: () => E },
    forward: () => zs[2]!.z,
    forwardEachLoop: () => zs.map((x) => x.z),
  }) as Denoiser;
  const x0 = torch.tensor(X0, [B, L], 'int64');
  const condition = torch.tensor(CLUE.map(Number), [B, L], 'bool');
  const loss = sjdLoss(
    model,
    proc,
    x0,
    Float64Array.from(t),
    new torch.TorchGenerator(1),
    condition,
    true,
  );
  loss.backward();
  const mask = CLUE.map((q) => !q); // instant unsticking: every non-clue position is in the loss
  const each = zs.map((x) => expected(x.data, X0, mask));
  close(loss.item(), (each[0]!.value + each[1]!.value + each[2]!.value) / 3, 1e-5, 'loss');
  for (const [k, x] of zs.entries())
    closeAll(
      [...(x.z.grad!.dataView() as Float32Array)],
      each[k]!.grad.map((g) => g / 3),
      1e-6,
      `dLoss/dz of loop ${k + 1}`,
    );
  // without it the loss reads the network's output (the last loop) alone
  const plain = sjdLoss(
    model,
    proc,
    x0,
    Float64Array.from(t),
    new torch.TorchGenerator(1),
    condition,
  );
  close(plain.item(), each[2]!.value, 1e-5, 'the plain loss');
  // a network without loops to read is refused in one line
  const { model: flat } = stubModel(zs[0]!.z);
  assert.throws(
    () =>
      sjdLoss(flat, proc, x0, Float64Array.from(t), new torch.TorchGenerator(1), condition, true),
    /^Error: deep supervision reads the loops of a transformer; this network has none$/,
  );
});
