// The classifier averaged over symmetric copies (src/sampling/symmetric-classifier.ts) against
// closed forms on toy classifiers: the identity alone gives the base classifier back (the same
// function); a classifier that scores each position from its own y (equivariant under every
// position map) is left unchanged by any set of copies, so moving the copies back is exact; a
// classifier that reads absolute positions gives the log of its copies' mean probability,
// computed by hand; per-row times reach each copy's rows; the committed flags move with y; bad
// maps are refused. And the Sudoku copies (ensembleSymmetries): the identity first, then maps of
// the geometric group (the constraint graph kept), the same for the same seed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { symmetricClassifier } from '../src/sampling/symmetric-classifier.js';
import type { Classifier } from '../src/sampling/types.js';
import { CELLS, ensembleSymmetries, PEERS } from '../src/tasks/sudoku/index.js';
import { tensor, tidy } from '../src/torch/index.js';

const B = 2;
const L = 4;
const d = 3;
const V = 5;
/** y [B, L, d]: distinct values so that any mix-up of positions shows. */
const yValues = Array.from({ length: B * L * d }, (_, i) => Math.sin(1.3 * i + 0.2));
const y = () => tensor(yValues, [B, L, d], 'float64');
const committedValues = [1, 0, 0, 1, 0, 1, 1, 0];
const committed = () => tensor(committedValues, [B, L], 'bool');
/** [V, d] fixed weights of the toy classifiers. */
const weights = Array.from({ length: V * d }, (_, i) => Math.cos(0.7 * i));

/** Logits [B, L, V] = y A^T + 2 committed: position-wise, so equivariant under any map. */
const local: Classifier = (yy, _t, c) =>
  yy
    .matmul(tensor(weights, [V, d], 'float64').transpose(0, 1))
    .add(c.to('float64').unsqueeze(-1).mul(2));

/** The local logits plus (position index) times 0.3 on class 0: reads absolute positions. */
const positional: Classifier = (yy, t, c) => {
  const bias = new Float64Array(L * V);
  for (let i = 0; i < L; i++) bias[i * V] = 0.3 * i;
  return local(yy, t, c).add(tensor(bias, [L, V], 'float64'));
};

const perms = [
  [0, 1, 2, 3],
  [2, 0, 3, 1],
  [3, 2, 1, 0],
];

const close = (a: number[], b: number[], tol: number) => {
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++)
    assert.ok(Math.abs(a[i]! - b[i]!) <= tol, `entry ${i}: ${a[i]} against ${b[i]}`);
};

test('the identity alone is the base classifier itself', () => {
  assert.equal(symmetricClassifier(local, [[0, 1, 2, 3]]), local);
});

test('an equivariant classifier is left unchanged by any copies: the logits moved back exactly', () => {
  tidy(() => {
    const want = local(y(), 0.5, committed()).logSoftmax(-1).toArray();
    const got = symmetricClassifier(local, perms)(y(), 0.5, committed()).toArray();
    close(got, want, 1e-12);
  });
});

test('a position-reading classifier gives the log of its copies mean probability (closed form)', () => {
  tidy(() => {
    const got = symmetricClassifier(positional, perms)(y(), 0.5, committed()).toArray(); // [B, L, V]
    const base = local(y(), 0.5, committed()).toArray(); // [B, L, V]
    for (let b = 0; b < B; b++)
      for (let i = 0; i < L; i++) {
        // in copy k, the state's position i sits at the copy position j with perm[k][j] = i
        const mean = new Array<number>(V).fill(0);
        for (const p of perms) {
          const j = p.indexOf(i);
          const z = Array.from(
            { length: V },
            (_, v) => base[(b * L + i) * V + v]! + (v === 0 ? 0.3 * j : 0),
          );
          const lse = Math.log(z.reduce((s, x) => s + Math.exp(x), 0));
          z.forEach((x, v) => {
            mean[v]! += Math.exp(x - lse) / perms.length;
          });
        }
        close(
          got.slice((b * L + i) * V, (b * L + i + 1) * V),
          mean.map((m) => Math.log(m)),
          1e-12,
        );
      }
  });
});

test("per-row times reach every copy's rows, and the committed flags move with y", () => {
  const seen: { t: number[]; c: number[]; y: number[] }[] = [];
  const spy: Classifier = (yy, t, c) => {
    seen.push({ t: Array.from(t as Float64Array), c: c.to('int64').toArray(), y: yy.toArray() });
    return local(yy, t, c);
  };
  tidy(() => {
    symmetricClassifier(spy, perms)(y(), Float64Array.from([0.25, 0.75]), committed());
  });
  assert.deepEqual(seen[0]!.t, [0.25, 0.75, 0.25, 0.75, 0.25, 0.75]);
  const k = 1; // copy 1: position j holds the state's position perms[1][j]
  for (let b = 0; b < B; b++)
    for (let j = 0; j < L; j++) {
      const i = perms[k]![j]!;
      assert.equal(seen[0]!.c[(k * B + b) * L + j], committedValues[b * L + i]);
      assert.deepEqual(
        seen[0]!.y.slice(((k * B + b) * L + j) * d, ((k * B + b) * L + j + 1) * d),
        yValues.slice((b * L + i) * d, (b * L + i + 1) * d),
      );
    }
});

test('maps that are not permutations of the positions are refused', () => {
  assert.throws(() => symmetricClassifier(local, []), /at least one copy/);
  assert.throws(
    () =>
      symmetricClassifier(local, [
        [0, 1, 2, 3],
        [0, 1, 1, 3],
      ]),
    /copy 1 is not a permutation/,
  );
  assert.throws(
    () =>
      symmetricClassifier(local, [
        [0, 1, 2, 3],
        [0, 1, 2],
      ]),
    /copy 1: a permutation of 4 positions, got 3/,
  );
  const wide = symmetricClassifier(local, [
    [0, 1, 2, 3, 4],
    [4, 3, 2, 1, 0],
  ]);
  assert.throws(
    () => tidy(() => wide(y(), 0.5, committed())),
    /permute 5 positions, the state has 4/,
  );
});

test("Sudoku's copies: the identity first, then maps that keep the constraint graph; seeded", () => {
  const s = ensembleSymmetries(6, 7);
  assert.equal(s.length, 6);
  assert.deepEqual(
    s[0],
    Array.from({ length: CELLS }, (_, i) => i),
  );
  for (const p of s) {
    assert.deepEqual(
      [...p].sort((a, b) => a - b),
      Array.from({ length: CELLS }, (_, i) => i),
    );
    for (let i = 0; i < CELLS; i++)
      for (let j = 0; j < CELLS; j++)
        assert.equal(PEERS[i]!.includes(j), PEERS[p[i]!]!.includes(p[j]!));
  }
  assert.notDeepEqual(s[1], s[0]);
  assert.deepEqual(ensembleSymmetries(6, 7), s);
  assert.notDeepEqual(ensembleSymmetries(6, 8), s);
  assert.throws(
    () => ensembleSymmetries(0, 7),
    /ensemble must be a whole number from 1 to 16, got 0/,
  );
  assert.throws(() => ensembleSymmetries(17, 7), /got 17/);
});
