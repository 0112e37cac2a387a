// The batched sampling loop (src/sampling/batched.ts) on a tiny random classifier: n sequences in
// chunks are exactly the driver's chunks seeded seed + start, conditioned by the chunk's own
// rows, with the first chunk's trajectory and the NFE spent; the driver's error names the
// default sampler. Step by step: sampleBatchSteps yields the steps sample records
// (with the classifier's argmax and confidence) and returns sampleInBatches's result; stopping
// early frees every tensor the run holds.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Denoiser } from '../src/model/denoiser.js';
import * as P from '../src/process/index.js';
import {
  modelClassifier,
  sample,
  sampleBatchSteps,
  sampleInBatches,
  type TrajectoryStep,
} from '../src/sampling/index.js';
import * as torch from '../src/torch/index.js';
import { SETTINGS } from './settings.js';

const L = 4;
const model = new Denoiser(
  {
    length: L,
    classes: 3,
    anchorDim: 2,
    anchors: 'frozen',
    width: 8,
    depth: 1,
    heads: 2,
    mlpHidden: 16,
  },
  new torch.TorchGenerator(0),
);
const proc = P.makeProcess('hybrid', { length: L });

/** Row r of every chunk: clue token r % 3 at position r % L. */
const conditionRows = (start: number, size: number) => {
  const tokens: number[] = [];
  const mask: number[] = [];
  for (let r = start; r < start + size; r++)
    for (let i = 0; i < L; i++) {
      tokens.push(i === r % L ? r % 3 : 0);
      mask.push(i === r % L ? 1 : 0);
    }
  return {
    tokens: torch.tensor(tokens, [size, L], 'int64'),
    mask: torch.tensor(mask, [size, L], 'bool'),
  };
};

for (const sampler of ['sjd', 'confidence'] as const) {
  test(`sampleInBatches (${sampler}): 5 sequences in chunks of 2 are the driver's chunks seeded seed + start`, () => {
    const o = { sampler, nfe: 6, temperature: 0.8, grid: 'uniform' as const, seed: 7 };
    const r = sampleInBatches(model, proc, {
      ...SETTINGS,
      ...o,
      n: 5,
      batchSize: 2,
      record: true,
      condition: conditionRows,
    });
    assert.equal(r.rows.length, 5);
    const anchors = model.anchors.forward().detach();
    const want: number[][] = [];
    let first: ReturnType<typeof sample> | undefined;
    for (const [start, B] of [
      [0, 2],
      [2, 2],
      [4, 1],
    ] as const) {
      const d = sample({
        ...SETTINGS,
        ...o,
        process: proc,
        classifier: modelClassifier(model),
        anchors,
        batch: B,
        length: L,
        seed: o.seed + start,
        condition: conditionRows(start, B),
        record: start === 0,
      });
      first ??= d;
      const t = d.tokens.toArray();
      for (let b = 0; b < B; b++) want.push(t.slice(b * L, (b + 1) * L));
    }
    assert.deepEqual(r.rows, want);
    r.rows.forEach((row, n) => {
      assert.equal(row[n % L], n % 3, `row ${n} keeps its clue`);
    });
    assert.deepEqual(r.trajectory, first!.trajectory);
    assert.equal(r.nfe, sampler === 'sjd' ? 6 : 5);
    // A sequence does not depend on the chunk size after it: the first chunk alone agrees.
    const alone = sampleInBatches(model, proc, {
      ...SETTINGS,
      ...o,
      n: 2,
      batchSize: 2,
      condition: conditionRows,
    });
    assert.deepEqual(alone.rows, want.slice(0, 2));
    assert.equal(alone.trajectory, undefined);
  });
}

test('sampleInBatches refuses a bad batch size; the driver names the default sampler', () => {
  assert.throws(
    () => sampleInBatches(model, proc, { ...SETTINGS, n: 2, batchSize: 0, nfe: 2, seed: 0 }),
    /^Error: batch size must be a positive integer, got 0$/,
  );
  assert.throws(
    () => sampleInBatches(model, proc, { ...SETTINGS, n: 2, batchSize: 2, nfe: 0, seed: 0 }),
    /^Error: an NFE budget of 0 is less than one step of the sjd sampler \(1 NFE a step\)$/,
  );
  assert.throws(
    () =>
      sampleInBatches(model, proc, {
        ...SETTINGS,
        n: 2,
        batchSize: 2,
        nfe: 1,
        seed: 0,
        sampler: 'confidence' as const,
      }),
    /less than one step of the confidence sampler \(2 NFE a step\)/,
  );
});

for (const sampler of ['sjd', 'confidence', 'adaptive'] as const) {
  test(`sampleBatchSteps (${sampler}): the recorded steps and sampleInBatches's result; an early stop frees the run`, () => {
    const o = {
      ...SETTINGS,
      sampler,
      nfe: 6,
      temperature: 0.8,
      seed: 3,
      n: 2,
      batchSize: 4,
      condition: conditionRows,
    };
    const whole = sampleInBatches(model, proc, { ...o, record: true });
    const live = torch.memoryStats().liveTensors;
    const run = sampleBatchSteps(model, proc, o);
    const steps: TrajectoryStep[] = [];
    for (let r = run.next(); ; r = run.next()) {
      if (r.done) {
        const { trajectory: _, ...result } = whole;
        assert.deepEqual(r.value, result);
        break;
      }
      steps.push(r.value);
    }
    assert.deepEqual(steps, whole.trajectory);
    assert.deepEqual([...steps[0]!.argmax], Array(2 * L).fill(-1)); // before the first pass
    const last = steps.at(-1)!;
    assert.ok(last.nfe > 0 && last.argmax.every((a) => a >= 0 && a < 3));
    assert.ok(last.confidence.every((p) => p >= 1 / 3 - 1e-6 && p <= 1));
    assert.equal(torch.memoryStats().liveTensors, live);
    const stopped = sampleBatchSteps(model, proc, o);
    stopped.next();
    stopped.next();
    stopped.return(undefined as never);
    assert.equal(torch.memoryStats().liveTensors, live);
  });
}
