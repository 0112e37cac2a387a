// The refilled batch (src/sampling/loop.ts) on the exact oracle of a toy law: a row's answer
// (tokens and NFE) is the same alone, in a refilled batch and in a batch that waits for its
// slowest row, whatever the batch size; a finished row's slot is taken by a waiting row in the
// next pass, the slots never exceed the batch size, and refilling takes fewer passes; a dropped
// row leaves at once without an answer while the others go on; bad rows and grid samplers are
// refused in one line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { makeProcess } from '../src/process/index.js';
import {
  type RefillOptions,
  type RefillStep,
  type RowAnswer,
  type RowJob,
  refillSteps,
} from '../src/sampling/index.js';
import { ORACLE_TOY, oracleContext } from './oracle.js';

const proc = makeProcess('hybrid', { length: 3 });
const options = (batchSize: number, refill = true): RefillOptions => ({
  ...oracleContext(proc, ORACLE_TOY),
  length: 3,
  sampler: 'adaptive' as const,
  commit: { by: 'probability', threshold: 0.995 },
  batchSize,
  refill,
});

/** Row k: budgets 1 to 4 NFE in turn, a clue (token k % 3 at site k % 3) on every third row. */
const rows = (n: number): RowJob[] =>
  Array.from({ length: n }, (_, k) => ({
    seed: 11,
    id: k,
    attempt: 0,
    budget: 1 + (k % 4),
    condition:
      k % 3 === 0
        ? { tokens: [k % 3, k % 3, k % 3], mask: [0, 1, 2].map((i) => (i === k % 3 ? 1 : 0)) }
        : undefined,
  }));

/** Runs `jobs` through a refilled batch: the answers by id, the passes, the steps watched. */
function run(jobs: RowJob[], o: RefillOptions, dropped?: (job: RowJob) => boolean) {
  const waiting = [...jobs];
  const answers = new Map<number, RowAnswer>();
  const steps: RefillStep[] = [];
  const gen = refillSteps(
    o,
    {
      take: () => waiting.shift(),
      done: (job, a) => {
        assert.ok(!answers.has(job.id), `row ${job.id} answered twice`);
        answers.set(job.id, a);
      },
      dropped,
    },
    'all',
  );
  for (;;) {
    const r = gen.next();
    if (r.done) {
      r.value.tokens.dispose();
      r.value.y.dispose();
      return { answers, passes: r.value.passes, steps };
    }
    steps.push(r.value!);
  }
}

test('a row gives the same tokens and NFE alone, in a refilled batch and in a batch that waits for its slowest row', () => {
  const jobs = rows(14);
  const alone = jobs.map((j) => run([j], options(1)).answers.get(j.id)!);
  const refilled = run(jobs, options(4));
  const waiting = run(jobs, options(4, false));
  const wide = run(jobs, options(16));
  for (const j of jobs) {
    for (const r of [refilled, waiting, wide])
      assert.deepEqual(r.answers.get(j.id), alone[j.id], `row ${j.id}`);
    // a clue stays, and the row spent no more than its budget
    const a = alone[j.id]!;
    if (j.condition) assert.equal(a.tokens[j.id % 3], j.id % 3);
    assert.ok(a.nfe >= 1 && a.nfe <= j.budget, `row ${j.id}: ${a.nfe} NFE`);
  }
  // the rows differ (the answers are not all one), so the comparison has teeth
  assert.ok(new Set(alone.map((a) => a.tokens.join(''))).size > 3);
  assert.ok(refilled.passes < waiting.passes, `${refilled.passes} vs ${waiting.passes} passes`);
  const rowPasses = alone.reduce((s, a) => s + a.nfe, 0);
  assert.ok(refilled.passes >= Math.ceil(rowPasses / 4));
});

test('a finished row frees its slot for the next waiting row; the slots never exceed the batch size', () => {
  const jobs = rows(10);
  const { steps } = run(jobs, options(3));
  for (const s of steps) {
    assert.ok(s.jobs.length <= 3);
    assert.equal(s.step.committed.length, s.jobs.length * 3);
  }
  // a row taken later sits beside a row of the first fill that is still working
  const mixed = steps.some((s) => {
    const ids = s.jobs.flatMap((j) => (j ? [j.id] : []));
    return ids.some((id) => id >= 3) && ids.some((id) => id < 3);
  });
  assert.ok(mixed, 'no pass held a refilled row beside a first one');
  // without refill, a pass holds rows of one fill only
  for (const s of run(jobs, options(3, false)).steps) {
    const fills = new Set(s.jobs.flatMap((j) => (j ? [Math.floor(j.id / 3)] : [])));
    assert.ok(fills.size <= 1, `fills ${[...fills]} in one pass`);
  }
});

test('a dropped row leaves at the next pass without an answer; the others are unchanged', () => {
  const jobs = rows(8).map((j) => ({ ...j, budget: 4 }));
  const whole = run(jobs, options(3));
  let passes = 0;
  const r = run(jobs, options(3), (job) => {
    passes++;
    return job.id === 1 && passes > 1;
  });
  assert.ok(!r.answers.has(1) || r.answers.get(1)!.nfe === 1, 'row 1 ran on after its drop');
  for (const j of jobs)
    if (j.id !== 1) assert.deepEqual(r.answers.get(j.id), whole.answers.get(j.id), `row ${j.id}`);
});

test('a refilled batch refuses bad rows and grid samplers in one line', () => {
  const bad = (job: Partial<RowJob>) => () =>
    run([{ ...rows(1)[0]!, condition: undefined, ...job }], options(2));
  assert.throws(
    bad({ budget: 0 }),
    /^Error: a row's NFE budget must be a whole number of at least 1 \(one step\), got 0$/,
  );
  assert.throws(
    bad({ condition: { tokens: [5, 0, 0], mask: [1, 0, 0] } }),
    /^Error: condition tokens must lie in 0\.\.2$/,
  );
  assert.throws(
    bad({ condition: { tokens: [0, 0], mask: [1, 0] } }),
    /^Error: a row's condition must have 3 sites, got 2$/,
  );
  assert.throws(
    () => run(rows(2), { ...options(2), sampler: 'confidence' as const }),
    /needs an adaptive sampler, not confidence/,
  );
  assert.throws(() => run(rows(2), options(0)), /batch size must be a positive integer, got 0/);
});
