// The shipped image model (models/image): `sjd demo image` samples it into a PNG grid
// with no data files, and its samples are garments by the metric: on N = 100 samples at 32 NFE
// the Fréchet distance in the feature network's space is below a third of the independent-pixel
// ceiling's at the same N (measured: see docs/results.md, Images), at least 8 of the 10
// classes are drawn, and the feature classifier's mean label entropy on them is under 1 nat
// (ln 10 = 2.30 for images no class fits). The metric needs Debian's dataset-fashion-mnist.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { FASHION_MNIST_DIR, hasShippedImageModel } from '../src/tasks/image/index.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args, '--threads', '1'], { encoding: 'utf8' });
const shipped = hasShippedImageModel() ? false : 'models/image is not in this checkout';

test('sjd demo image samples the shipped model into a PNG grid', { skip: shipped }, () => {
  const out = join(tempDir('sjd-image-demo-'), 'demo.png');
  const r = sjd('demo', 'image', '--out', out, '--count', '4', '--nfe', '8');
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    r.stdout,
    /sampled 4 images of 28 x 28 x 1, 16 levels with .*models\/image\/model\.safetensors \(8 NFE\) in \d+\.\d s; wrote /,
  );
  const png = PNG.sync.read(readFileSync(out));
  assert.deepEqual([png.width, png.height], [2 * (28 * 2 + 2) + 2, 2 * (28 * 2 + 2) + 2]);
});

test("the shipped model's samples: FD well below the pixel-marginal ceiling, most classes drawn", {
  skip: shipped || (existsSync(FASHION_MNIST_DIR) ? false : 'no dataset-fashion-mnist'),
}, () => {
  const r = sjd('eval', 'image', '-n', '100', '--nfe', '32', '--json');
  assert.equal(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout.trim().split('\n').pop()!);
  assert.ok(j.samples.fd < j.ceiling.fd / 3, `FD ${j.samples.fd} vs ceiling ${j.ceiling.fd}`);
  assert.ok(j.samples.fd > j.floor.fd, 'and above the test set (a model is not the data)');
  assert.ok(j.label_entropy < 1, `label entropy ${j.label_entropy}`);
  assert.ok(Math.min(...j.coverage) > 0, `coverage ${j.coverage}`);
});
