// The paper's CIFAR-10 image model (app:cifar10-imagenet's table) is the `paper` size: a 109M
// parameter ADM U-Net (96 features, multipliers [3, 4, 4], 4 residual blocks a level, attention
// at downsampling factors 2 and 4, dropout 0.1) over RGB 32 x 32 at 256 levels, trained by AdamW
// at 1e-4 after a 1,000-step warm-up, constant, batch 512, EMA 0.9999, 200,000 steps. The test
// writes data in CIFAR-10's binary format, reads it with `sjd data images`, asks `sjd train image
// --size paper --print-config` for the run's config (the table's), and builds that network from
// the config here: at initialisation its held-out loss on 2 images is an untrained classifier's
// over 256 levels (ln 256). (Training it a step on CPU, as the command would, writes a 1.7 GB
// checkpoint; the tiny sizes train end to end in image-task.test.ts.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CIFAR_RECORD, ImageTask, loadImageSet } from '../src/tasks/image/index.js';
import { noGrad, TorchGenerator } from '../src/torch/index.js';
import { buildModel, buildProcess, parseConfig } from '../src/train/index.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
  });
test("sjd train image --size paper: the paper table's config, and its U-Net at initialisation on CIFAR-format data", () => {
  const dir = tempDir('sjd-paper-image-');
  const n = 8;
  const buf = Buffer.alloc(n * CIFAR_RECORD);
  for (let r = 0; r < n; r++) {
    buf[r * CIFAR_RECORD] = r % 10;
    for (let p = 1; p < CIFAR_RECORD; p++) buf[r * CIFAR_RECORD + p] = (r * 31 + p * 7) % 256;
  }
  writeFileSync(join(dir, 'data_batch_1.bin'), buf);
  const data = join(dir, 'cifar.safetensors');
  const d = sjd('data', 'images', '--from', join(dir, 'data_batch_1.bin'), '--out', data);
  assert.equal(d.status, 0, d.stderr);
  const t = sjd(
    'train',
    'image',
    '--size',
    'paper',
    '--data',
    data,
    '--eval-data',
    data,
    '--steps',
    '1',
    '--print-config',
  );
  assert.equal(t.status, 0, t.stderr);
  const c = JSON.parse(t.stdout);
  assert.deepEqual(
    { ...c.model, anchors: undefined, anchorDim: undefined },
    {
      size: 'paper',
      arch: 'unet',
      base: 96,
      mults: [3, 4, 4],
      blocks: 4,
      heads: 4,
      attention: [2, 4],
      dropout: 0.1,
      anchors: undefined,
      anchorDim: undefined,
    },
  );
  assert.deepEqual(c.lr, { kind: 'constant', lr: 1e-4, warmup: 1000, total: 1 }); // --steps 1 (the size: 200,000)
  assert.deepEqual(
    [c.ema, c.weightDecay, c.image.channels, c.image.height, c.image.levels],
    [0.9999, 0, 3, 32, 256],
  );
  assert.deepEqual([c.process.name, c.process.blend, c.process.sigmaB], ['sjd', 'blur2d', 2.5]);
  // the network of that config, at initialisation, on 2 held-out images
  const config = parseConfig(c, 'the printed config');
  const set = loadImageSet(data);
  const task = new ImageTask(set, set, { evalSize: 2 });
  const model = buildModel(task, config.model, new TorchGenerator(0), config.process).eval();
  const proc = buildProcess(task, config.process);
  const valid = noGrad(() => task.evaluate(model, proc)).valid_loss!;
  assert.ok(
    Math.abs(valid - Math.log(256)) < 0.05,
    `valid loss ${valid} against ln 256 = ${Math.log(256).toFixed(4)}`,
  );
});
