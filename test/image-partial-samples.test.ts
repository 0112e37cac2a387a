// The scored images a batch at a time (src/lab/image/partial-samples.ts): drawn one
// batch after another they are the images one run draws; a scoring stopped after a batch resumes
// from the kept batches (read back, not drawn again); a file kept under another key is not read.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  dropPartialSamples,
  partialSamplesFile,
  resumableSamples,
} from '../src/lab/image/partial-samples.js';
import { loadAnyImageModel } from '../src/tasks/image/load.js';
import { sampleAnyImages } from '../src/tasks/image/sample.js';
import { imageShape } from '../src/tasks/image/tokens.js';
import { tempDir } from './tmp.js';

test('scored images drawn a batch at a time are one run’s, and a stopped draw resumes from the kept batches', () => {
  const m = loadAnyImageModel(); // the shipped model (masked, 28x28)
  const per = imageShape(m.geometry).length;
  const o = { n: 10, nfe: 2, seed: 0, batch: 4 };
  const whole = sampleAnyImages(m, o).images;
  const dir = tempDir('sjd-partial-samples-');
  const key = { run: 'a' };
  const seen: number[] = [];
  assert.deepEqual(
    resumableSamples(m, dir, key, o, (d) => seen.push(d)),
    whole,
  );
  assert.deepEqual(seen, [4, 8, 10]);
  dropPartialSamples(dir, o.nfe);
  assert.ok(!existsSync(partialSamplesFile(dir, o.nfe)));

  // stopped after the first batch: the file holds it
  assert.throws(
    () =>
      resumableSamples(m, dir, key, o, () => {
        throw new Error('stop');
      }),
    /stop/,
  );
  const file = partialSamplesFile(dir, o.nfe);
  const kept = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(Buffer.from(kept.value, 'base64').length, 4 * per);
  // mark the kept batch, so that reading it back shows
  const marked = Buffer.from(kept.value, 'base64').fill(1, 0, per);
  writeFileSync(file, JSON.stringify({ key: kept.key, value: marked.toString('base64') }));
  const resumed: number[] = [];
  const r = resumableSamples(m, dir, key, o, (d) => resumed.push(d));
  assert.deepEqual(resumed, [4, 8, 10]);
  assert.ok(r.subarray(0, per).every((v) => v === 1));
  assert.deepEqual(r.subarray(per), whole.subarray(per));

  // another key (another run's step, sampler, N) is not read
  const other: number[] = [];
  assert.deepEqual(
    resumableSamples(m, dir, { run: 'b' }, o, (d) => other.push(d)),
    whole,
  );
  assert.deepEqual(other, [4, 8, 10]);
});
