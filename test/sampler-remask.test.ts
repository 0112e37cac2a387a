// The remasking adaptive sampler (src/sampling/remask-step.ts), exact on a toy
// colouring problem whose classifier ignores y: five sites a, x, y, z and a clue p = 0, three
// values, neighbours differ (a-x, a-y, x-y, x-z, y-z, p-x, p-y). Its one solution is a = 0,
// {x, y} = {1, 2}, z = 0. The classifier prefers a = 1 (0.6) and knows nothing else, so the
// adaptive sampler commits the guess a = 1 first, then x = 2 and y = 2 together (each the one
// value its committed neighbours leave) and ends broken. The remasking sampler sees the clash
// before its next step, undoes a (its latest guess) and the round after it, rules a = 1
// out, and solves the board. A board nothing breaks is stepped exactly as by the adaptive sampler.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as P from '../src/process/index.js';
import type { SamplerName } from '../src/sampling/index.js';
import {
  type CommitRule,
  type Exclusion,
  getSampler,
  type SampleResult,
  type SamplerState,
  sample,
} from '../src/sampling/index.js';
import { undo } from '../src/sampling/remask-step.js';
import { RowKeyedRandom, rowKey } from '../src/sampling/step-random.js';
import type { AdaptiveStepFn } from '../src/sampling/types.js';
import * as torch from '../src/torch/index.js';
import { SETTINGS } from './settings.js';

const [A, X, Y, Z, CLUE] = [0, 1, 2, 3, 4];
const EDGES = [
  [A, X],
  [A, Y],
  [X, Y],
  [X, Z],
  [Y, Z],
  [CLUE, X],
  [CLUE, Y],
];
const K = 3;
const L = 5;

/** Neighbours differ: a value a committed neighbour holds is ruled out [B, L, K]. */
function colouring(tokens: torch.Tensor, committed: torch.Tensor): torch.Tensor {
  const [B] = tokens.shape as [number];
  const t = tokens.toArray();
  const c = committed.toArray();
  const out = new Uint8Array(B * L * K);
  for (let b = 0; b < B; b++)
    for (const [i, j] of EDGES)
      for (const [u, v] of [
        [i!, j!],
        [j!, i!],
      ])
        if (c[b * L + v!]) out[(b * L + u!) * K + t[b * L + v!]!] = 1;
  return torch.tensor(out, [B, L, K], 'bool');
}

/** Fixed logits: a prefers `guess` (0.6, the rest 0.25 and 0.15), every other site uniform. */
function classifier(guess: number) {
  const row = new Float32Array(L * K).fill(0);
  const p = [0.25, 0.15, 0.15];
  p[guess] = 0.6;
  if (guess !== 0) p[0] = 0.25;
  for (let k = 0; k < K; k++) row[A * K + k] = Math.log(p[k]!);
  return (y: torch.Tensor) => {
    const B = y.size(0);
    return torch.tensor(
      Float32Array.from({ length: B * L * K }, (_, i) => row[i % (L * K)]!),
      [B, L, K],
    );
  };
}

function run(
  sampler: SamplerName,
  guess: number,
  commit?: CommitRule,
  exclude: Exclusion | null = colouring,
): SampleResult {
  return sample({
    ...SETTINGS,
    process: P.makeProcess('hybrid', { length: L }),
    classifier: classifier(guess),
    anchors: torch.eye(K, 'float64'),
    batch: 1,
    length: L,
    nfe: 16,
    seed: 3,
    sampler,
    commit,
    exclude: exclude ?? undefined,
    condition: {
      tokens: torch.tensor([0, 0, 0, 0, 0], [1, L], 'int64'),
      mask: torch.tensor([0, 0, 0, 0, 1], [1, L], 'bool'),
    },
  });
}

/** The undoing's context (the sampler's, as the driver makes it) under the rules `exclude`. */
const context = (exclude: Exclusion) => ({
  process: P.makeProcess('hybrid', { length: L }),
  classifier: classifier(1),
  anchors: torch.eye(K, 'float64'),
  temperature: 1,
  topP: 1,
  commit: { by: 'probability' as const, threshold: 0.9999, undos: 4 },
  exclude,
});

/** One board's sampler state with its search record (y at 0: the undoing does not read it). */
function board(
  committed: number[],
  tokens: number[],
  sure: number[],
  order: number[],
  tabu = new Int32Array(L * K),
  undos = 0,
): SamplerState {
  return {
    y: torch.zeros([1, L, K], 'float64'),
    committed: torch.tensor(committed, [1, L], 'bool'),
    tokens: torch.tensor(tokens, [1, L], 'int64'),
    search: {
      sure: torch.tensor(sure, [1, L], 'float32'),
      order: torch.tensor(order, [1, L], 'int32'),
      tabu: torch.tensor(tabu, [1, L, K], 'int32'),
      undos: torch.tensor([undos], [1, 1], 'int32'),
    },
  };
}

const valid = (t: number[]) => EDGES.every(([i, j]) => t[i!] !== t[j!]);

test('remask: the adaptive sampler commits the guess a = 1 and ends broken; the remasking one undoes it and solves the board', () => {
  const plain = run('adaptive', 1).tokens.toArray();
  assert.deepEqual(plain.slice(0, 3), [1, 2, 2], 'adaptive: a = 1, then x = y = 2');
  assert.equal(valid(plain), false);
  const r = run('adaptive-remask', 1);
  const t = r.tokens.toArray();
  assert.equal(valid(t), true, `remask: ${t}`);
  assert.deepEqual([t[A], t[Z], t[X]! + t[Y]!], [0, 0, 3]); // the one solution up to x <-> y
  // rounds: a = 1; x = y = 2 (undone, no NFE); a = 0; x = 1; y = 2; z = 0
  assert.equal(r.nfe, 6);
});

test('remask: with no undoings allowed it is the adaptive sampler; bad caps and missing rules are refused', () => {
  const none = run('adaptive-remask', 1, { by: 'probability', threshold: 0.9999, undos: 0 });
  const plain = run('adaptive', 1);
  assert.deepEqual(none.tokens.toArray(), plain.tokens.toArray());
  assert.deepEqual(none.y.toArray(), plain.y.toArray());
  assert.throws(
    () => run('adaptive-remask', 1, { by: 'probability', threshold: 0.9999, undos: 1.5 }),
    /undos must be a whole number >= 0, got 1.5/,
  );
  assert.throws(
    () => run('adaptive-remask', 1, undefined, null),
    /needs them \(Sudoku's, on unless --no-rules\)/,
  );
});

test('remask: a board nothing breaks is stepped exactly as by the adaptive sampler (tokens and y bit for bit)', () => {
  const a = run('adaptive', 0);
  const b = run('adaptive-remask', 0);
  assert.equal(valid(a.tokens.toArray()), true);
  assert.deepEqual(b.tokens.toArray(), a.tokens.toArray());
  assert.deepEqual(b.y.toArray(), a.y.toArray());
  assert.equal(b.nfe, a.nfe);
});

test('remask: a value ruled out holds in its branch only: going back to an earlier round frees it, a later one keeps it', () => {
  const ctx = context(colouring);
  // a = 0 (round 1, sure 0.6), x = y = 2 (round 2, sure 0.5 and 0.9: a clash), the clue p = 0;
  // earlier undoings ruled out z = 1 back to round 3 and a = 2 back to round 1
  const tabu = new Int32Array(L * K);
  tabu[Z * K + 1] = 3;
  tabu[A * K + 2] = 1;
  const at = (undos: number) =>
    board([1, 1, 1, 0, 1], [0, 2, 2, 0, 0], [0.6, 0.5, 0.9, 0, 2], [1, 2, 2, 0, 0], tabu, undos);
  const state = at(1);
  const out = undo(ctx, state, Float64Array.of(4), new torch.TorchGenerator(0));
  // x (the latest round's least sure guess) and y (the same round) undone; x = 2 ruled out back
  // to round 2
  assert.deepEqual(out.committed.toArray(), [1, 0, 0, 0, 1]);
  const want = new Array(L * K).fill(0);
  want[X * K + 2] = 2; // the new one
  want[A * K + 2] = 1; // ruled out back to round 1 < 2: its branch stands
  assert.deepEqual(out.search!.tabu.toArray(), want, 'z = 1 (round 3 > 2) is freed');
  assert.deepEqual(out.search!.undos.toArray(), [2]);
  assert.deepEqual(out.search!.order.toArray(), [1, 0, 0, 0, 0]);
  // at the cap nothing is undone
  const capped = at(4);
  assert.equal(undo(ctx, capped, Float64Array.of(4), new torch.TorchGenerator(0)), capped);
});

test('remask: a board the rules see stuck (Exclusion.stuck) is undone before any site runs out of values', () => {
  // a = 1 committed (round 1); x and y, neighbours, each have 2 alone left (the clue 0 and a = 1):
  // no site is dead and nothing clashes yet, but no completion exists
  const hall = (left: torch.Tensor, _t: torch.Tensor, committed: torch.Tensor) => {
    const l = left.toArray();
    const c = committed.toArray();
    const only = (i: number) => {
      const open = [0, 1, 2].filter((k) => l[i * K + k]);
      return !c[i] && open.length === 1 ? open[0] : -1;
    };
    return torch.tensor([only(X) >= 0 && only(X) === only(Y) ? 1 : 0], [1, 1], 'bool');
  };
  const state = board([1, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0.6, 0, 0, 0, 2], [1, 0, 0, 0, 0]);
  const rules: Exclusion = Object.assign(colouring.bind(null), { stuck: hall });
  const gen = () => new torch.TorchGenerator(0);
  const plain = undo(context(colouring), state, Float64Array.of(4), gen());
  assert.equal(plain, state, 'unseen without it');
  const out = undo(context(rules), state, Float64Array.of(4), gen());
  assert.deepEqual(out.committed.toArray(), [0, 0, 0, 0, 1], 'a undone');
  const want = new Array(L * K).fill(0);
  want[A * K + 1] = 1; // a = 1 ruled out back to round 1
  assert.deepEqual(out.search!.tabu.toArray(), want);
  assert.deepEqual(out.search!.undos.toArray(), [1]);
  // the full sampler: the guess a = 1 is undone one round sooner than by the clash (NFE 6)
  const r = run('adaptive-remask', 1, undefined, rules);
  assert.equal(valid(r.tokens.toArray()), true);
  assert.equal(r.nfe, 5);
});

test('remask: the latest guess is taken back first (depth-first), not an earlier one less sure; commits made at the threshold are not guesses', () => {
  const ctx = context(colouring);
  const gen = () => new torch.TorchGenerator(0);
  // a = 0 (round 1, a guess at 0.6), x = y = 2 (round 2, guesses at 0.9 and 0.95: a clash): the
  // least sure commit is a, right; x, the latest round's least sure guess, is taken back with y
  const guessed = board([1, 1, 1, 0, 1], [0, 2, 2, 0, 0], [0.6, 0.9, 0.95, 0, 2], [1, 2, 2, 0, 0]);
  const out = undo(ctx, guessed, Float64Array.of(4), gen());
  assert.deepEqual(out.committed.toArray(), [1, 0, 0, 0, 1], 'a stands');
  const want = new Array(L * K).fill(0);
  want[X * K + 2] = 2;
  assert.deepEqual(out.search!.tabu.toArray(), want, 'x = 2 ruled out back to round 2');
  // a = 1 (round 1, a guess at 0.6), x = y = 2 (round 2, each committed at probability 1, above
  // the threshold 0.9999: not guesses): the guess a is taken back, and the round after it
  const forced = board([1, 1, 1, 0, 1], [1, 2, 2, 0, 0], [0.6, 1, 1, 0, 2], [1, 2, 2, 0, 0]);
  const back = undo(ctx, forced, Float64Array.of(4), gen());
  assert.deepEqual(back.committed.toArray(), [0, 0, 0, 0, 1]);
  const ruled = new Array(L * K).fill(0);
  ruled[A * K + 1] = 1;
  assert.deepEqual(back.search!.tabu.toArray(), ruled, 'a = 1 ruled out back to round 1');
});

test('remask keyed by row: a healthy board beside a broken one steps as it does alone, and so does the broken one', () => {
  const ctx = context(colouring);
  // broken: x = y = 2 clash (the redraw runs); healthy: a = 0 alone committed, nothing clashes
  const broken = board([1, 1, 1, 0, 1], [0, 2, 2, 0, 0], [0.6, 0.5, 0.9, 0, 2], [1, 2, 2, 0, 0]);
  const healthy = board([1, 0, 0, 0, 1], [0, 0, 0, 0, 0], [0.6, 0, 0, 0, 2], [1, 0, 0, 0, 0]);
  const rows = [healthy, broken];
  const pick = (f: (s: SamplerState) => torch.Tensor) => torch.cat(rows.map(f), 0);
  const both: SamplerState = {
    y: pick((s) => s.y),
    committed: pick((s) => s.committed),
    tokens: pick((s) => s.tokens),
    search: {
      sure: pick((s) => s.search!.sure),
      order: pick((s) => s.search!.order),
      tabu: pick((s) => s.search!.tabu),
      undos: pick((s) => s.search!.undos),
    },
  };
  const step = getSampler('adaptive-remask').step as AdaptiveStepFn;
  const keys = [rowKey(1, 0, 0, 4), rowKey(1, 1, 0, 4)];
  const batch = step(ctx, both, Float64Array.of(4, 4), false, new RowKeyedRandom(keys));
  rows.forEach((s, b) => {
    const alone = step(ctx, s, Float64Array.of(4), false, new RowKeyedRandom([keys[b]!]));
    const row = (x: torch.Tensor) => x.narrow(0, b, 1).toArray();
    assert.deepEqual(row(batch.committed), alone.committed.toArray(), `board ${b}`);
    assert.deepEqual(row(batch.tokens), alone.tokens.toArray(), `board ${b}`);
    assert.deepEqual(row(batch.y), alone.y.toArray(), `board ${b}`);
  });
});
