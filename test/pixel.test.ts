// The pixel-space baselines of tab:cifar10_fid (src/pixel/): DDPM's linear-beta
// chain in closed form, the encodings of levels (values, analog bits) round-trip, the forward law's
// moments, the loss is zero under the exact predictor of a one-image data set, and the samplers
// (DDPM ancestral, DDIM) with the exact denoiser of Gaussian data reach the variance that the
// closed-form recursion of their updates gives, and the data's at a fine grid. End to end: runs
// of both processes resume bit for bit and sample by seed; the commands train, sample and refuse
// what these processes do not take, in one line.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { UNetRegressor } from '../src/model/unet-regressor.js';
import {
  analogBits,
  corruptPixels,
  ddpmSchedule,
  linearSignalSchedule,
  type PixelDiffusion,
  pixelDiffusion,
  pixelGrid,
  pixelLoss,
  pixelSampleSteps,
  scalarEncoding,
} from '../src/pixel/index.js';
import { drain } from '../src/sampling/index.js';
import {
  ImageTask,
  imageConfig,
  loadAnyImageModel,
  sampleAnyImages,
  saveImageSet,
  syntheticImages,
} from '../src/tasks/image/index.js';
import { textConfig } from '../src/tasks/text/index.js';
import * as torch from '../src/torch/index.js';
import { parseConfig, train } from '../src/train/index.js';
import { sjd } from './serve-fixture.js';
import { tempDir } from './tmp.js';

test("DDPM's chain: abar_n = prod (1 - beta_k), beta linear 1e-4 .. 2e-2 over 1000; times snap to steps", () => {
  const s = ddpmSchedule();
  assert.equal(s.alphaBar(0), 1);
  assert.ok(Math.abs(s.alphaBar(0.001) - (1 - 1e-4)) < 1e-15);
  assert.ok(Math.abs(s.alphaBar(0.002) - (1 - 1e-4) * (1 - (1e-4 + 1.99e-2 / 999))) < 1e-15);
  // log abar_1000 = sum log(1 - beta_k): the known end of Ho et al.'s schedule, 4.04e-5
  let log = 0;
  for (let k = 0; k < 1000; k++) log += Math.log1p(-(1e-4 + (k * (2e-2 - 1e-4)) / 999));
  assert.ok(Math.abs(s.alphaBar(1) / Math.exp(log) - 1) < 1e-12);
  assert.ok(Math.abs(s.alphaBar(1) - 4.036e-5) < 1e-7);
  assert.equal(s.snap(0.0004), 0.001); // step 1
  assert.equal(s.snap(0.5), 0.5);
  assert.equal(s.snap(0.5004), 0.501);
  assert.equal(s.snap(1), 1);
  assert.equal(linearSignalSchedule.alphaBar(0.25), 0.75);
  // a grid of NFE + 1 times from 0 to 1; DDPM respaces its 1000 steps, no more
  assert.deepEqual(pixelGrid(pixelDiffusion('ddpm', 16), 4), [0, 0.25, 0.5, 0.75, 1]);
  assert.equal(pixelGrid(pixelDiffusion('ddpm', 16), 1000).length, 1001);
  assert.throws(() => pixelGrid(pixelDiffusion('ddpm', 16), 1001), /at most 1000 steps/);
  assert.throws(() => pixelGrid(pixelDiffusion('bitdiff', 16), 0), /NFE must be/);
});

test('encodings: every level round-trips; analog bits are -1/+1, most significant first', () => {
  for (const K of [2, 10, 16, 256]) {
    const levels = torch.arange(0, K, 1, 'int64').reshape([1, K]); // [1, K]
    for (const e of [scalarEncoding(K), analogBits(K)]) {
      const v = e.encode(levels); // [1, K, D]
      assert.deepEqual(v.shape, [1, K, e.dim]);
      assert.ok(v.abs().amax([0, 1, 2]).item() <= 1);
      assert.deepEqual(e.decode(v).toArray(), levels.toArray(), `${e.name} K ${K}`);
      // a little noise decodes to the same level (half a step for values, any sign-keeping for bits)
      const noise = e.name === 'bits' ? 0.9 : 0.99 / (K - 1);
      assert.deepEqual(e.decode(v.mul(1 - noise * 0.5)).toArray(), levels.toArray());
    }
  }
  assert.equal(analogBits(16).dim, 4);
  assert.equal(analogBits(10).dim, 4);
  assert.deepEqual(
    analogBits(16)
      .encode(torch.tensor([5], [1, 1], 'int64'))
      .toArray(),
    [-1, 1, -1, 1],
  );
  // a code above K - 1 (bits of K = 10 can say 15) is the top level
  assert.deepEqual(
    analogBits(10)
      .decode(torch.ones([1, 1, 4], 'float64'))
      .toArray(),
    [9],
  );
  assert.deepEqual(
    scalarEncoding(16)
      .encode(torch.tensor([0, 15], [1, 2], 'int64'))
      .toArray(),
    [-1, 1],
  );
  assert.throws(() => scalarEncoding(1), /levels must be >= 2/);
});

test('the forward law: x_t has mean sqrt(abar) x0 and variance 1 - abar (200,000 draws, 4 sigma)', () => {
  const d = pixelDiffusion('ddpm', 16);
  const n = 200_000;
  const x0 = torch.full([1, n], 12, 'int64'); // value 2 * 12 / 15 - 1 = 0.6
  const t = 0.3;
  const c = corruptPixels(d, x0, Float64Array.of(t), new torch.TorchGenerator(7));
  const ab = d.schedule.alphaBar(t);
  const xs = c.xt.reshape([-1]);
  const m = xs.mean().item();
  const v = xs.var().item();
  assert.ok(Math.abs(m - Math.sqrt(ab) * 0.6) < 4 * Math.sqrt((1 - ab) / n), `mean ${m}`);
  assert.ok(Math.abs(v / (1 - ab) - 1) < 4 * Math.sqrt(2 / n), `variance ${v}`);
  assert.deepEqual(c.times, [0.3]);
});

/** A stand-in network: f(x [B, L, D] float32, t) -> [B, L, D]. */
const oracle = (f: (x: torch.Tensor, t: number) => torch.Tensor) =>
  ({
    forward: (x: torch.Tensor, t: torch.Tensor) => f(x, t.toArray()[0]!),
  }) as unknown as UNetRegressor;

test('the loss is zero under the exact predictor of a one-image data set (epsilon and x0)', () => {
  const K = 16;
  const img = torch.tensor([0, 3, 7, 15, 9, 1], [1, 6], 'int64');
  const x0 = img.expand([5, 6]).contiguous(); // [5, 6]
  const t = Float64Array.of(0.05, 0.3, 0.5, 0.8, 0.999);
  for (const name of ['ddpm', 'bitdiff'] as const) {
    const d = pixelDiffusion(name, K);
    const clean = d.encoding.encode(img).to('float32'); // [1, 6, D]
    const exact = oracle((x, s) => {
      if (d.prediction === 'x0') return clean.expand(x.shape);
      const ab = d.schedule.alphaBar(s);
      return x.sub(clean.mul(Math.sqrt(ab))).div(Math.sqrt(1 - ab)); // the one epsilon that fits
    });
    // one time a row: the oracle reads the first, so one row at a time
    for (let i = 0; i < t.length; i++) {
      const loss = pixelLoss(
        exact,
        d,
        x0.narrow(0, i, 1),
        t.subarray(i, i + 1),
        new torch.TorchGenerator(i),
      );
      assert.ok(loss.item() < 1e-9, `${name} t ${t[i]}: ${loss.item()}`);
    }
    const off = oracle((x) => x.mul(0)); // predicting 0: the loss is the target's mean square
    const l = pixelLoss(
      off,
      d,
      x0.narrow(0, 0, 1),
      Float64Array.of(0.5),
      new torch.TorchGenerator(1),
    );
    assert.ok(l.item() > 0.05, `${name}: ${l.item()}`);
  }
});

/**
 * The variance after a run from N(0, 1), with the exact denoiser of data N(0, s^2), by the
 * recursion of the update written here: x0_hat = c x_t, c = sqrt(a) s^2 / (a s^2 + 1 - a); DDIM
 * x_s = (sqrt(b) c + sqrt(1 - b) (1 - sqrt(a) c) / sqrt(1 - a)) x_t; ancestral x_s = (m0 c + m1)
 * x_t + sd z with DDPM's posterior mean and variance beta = 1 - abar_t / abar_s.
 */
function predictedVariance(d: PixelDiffusion, nfe: number, s2: number): number {
  const grid = pixelGrid(d, nfe);
  let v = 1;
  for (let i = nfe; i >= 1; i--) {
    const a = d.schedule.alphaBar(grid[i]!);
    const b = i === 1 ? 1 : d.schedule.alphaBar(grid[i - 1]!);
    const c = (Math.sqrt(a) * s2) / (a * s2 + 1 - a);
    if (d.sampler === 'ddim') {
      const k = Math.sqrt(b) * c + (Math.sqrt(1 - b) * (1 - Math.sqrt(a) * c)) / Math.sqrt(1 - a);
      v *= k * k;
    } else {
      const r = a / b; // alpha_{t|s}
      const m0 = (Math.sqrt(b) * (1 - r)) / (1 - a);
      const m1 = (Math.sqrt(r) * (1 - b)) / (1 - a);
      v = (m0 * c + m1) ** 2 * v + (i === 1 ? 0 : 1 - r); // beta (fixedlarge); none at t = 0
    }
  }
  return v;
}

test('samplers: with the exact denoiser of N(0, s^2) data the final variance is the recursion’s, and s^2 at a fine grid', () => {
  const s2 = 0.04; // s = 0.2: x0_hat is never clipped (5 sigma)
  const L = 2000;
  for (const name of ['ddpm', 'bitdiff'] as const) {
    const d = pixelDiffusion(name, 16);
    const exact = oracle((x, t) => {
      const a = d.schedule.alphaBar(t);
      const c = (Math.sqrt(a) * s2) / (a * s2 + 1 - a);
      return d.prediction === 'x0' ? x.mul(c) : x.mul((1 - Math.sqrt(a) * c) / Math.sqrt(1 - a));
    });
    for (const nfe of [4, 32, 200]) {
      // the state before decoding: the run's x_0 (decode maps it to levels, so read the last step)
      const run = pixelSampleSteps(exact, d, L, { n: 8, nfe, seed: 3, batch: 8 }, 'all');
      const steps = drain(run, true).trajectory!;
      assert.equal(steps.length, nfe);
      const last = steps.at(-1)!;
      // |x_0| per token is yNorm; its mean square over 16,000 tokens (D numbers each)
      const D = d.encoding.dim;
      const ms = last.yNorm.reduce((acc, y) => acc + y * y, 0) / (last.yNorm.length * D);
      const want = predictedVariance(d, nfe, s2);
      const tol = 4 * want * Math.sqrt(2 / (last.yNorm.length * D));
      assert.ok(Math.abs(ms - want) < tol, `${name} NFE ${nfe}: ${ms} vs ${want}`);
      // the ancestral chain reaches the data's spread; DDIM's last step is the posterior mean
      // x0_hat = c x (c = 0.95 at t = 1/500 here), so it ends under-dispersed at any grid
      if (nfe === 200 && name === 'ddpm')
        assert.ok(Math.abs(want / s2 - 1) < 0.05, `${name}: ${want} vs ${s2}`);
    }
    if (name === 'bitdiff') assert.ok(predictedVariance(d, 500, s2) < 0.95 * s2);
  }
});

test('samplers: the chunk starting at sequence `start` is seeded seed + start, so chunks drawn alone are one run’s; progress counts images', () => {
  for (const name of ['ddpm', 'bitdiff'] as const) {
    const d = pixelDiffusion(name, 16);
    const shrink = oracle((x) => x.mul(0.5));
    const rows = (n: number, seed: number) =>
      drain(pixelSampleSteps(shrink, d, 6, { n, nfe: 4, seed, batch: 2 }, 'none'), false).rows;
    const whole = rows(5, 3);
    assert.equal(whole.length, 5);
    assert.deepEqual([...rows(2, 3), ...rows(2, 5), ...rows(1, 7)], whole, name);
    assert.notDeepEqual(rows(2, 5), whole.slice(0, 2), name); // the seed is read
  }
  // the progress told: within a chunk of 2 at NFE 4, floor(2 k / 4) capped at 1, then 2 at its end
  const told: number[] = [];
  const d = pixelDiffusion('ddpm', 16);
  const progress = (done: number, n: number) => told.push(done, n);
  drain(
    pixelSampleSteps(
      oracle((x) => x),
      d,
      6,
      { n: 3, nfe: 4, seed: 0, batch: 2, progress },
      'none',
    ),
    false,
  );
  const dones = told.filter((_, i) => i % 2 === 0);
  assert.deepEqual(dones, [0, 1, 1, 1, 2, 2, 2, 2, 2, 3]); // the second chunk holds 1
  assert.ok(told.filter((_, i) => i % 2 === 1).every((n) => n === 3));
});

const set = syntheticImages({ n: 64, channels: 1, height: 8, width: 8, levels: 16, seed: 1 });
const held = syntheticImages({ n: 16, channels: 1, height: 8, width: 8, levels: 16, seed: 2 });
const geometry = { height: 8, width: 8, channels: 1, levels: 16 };

test('runs: both processes train (no anchors in the config), resume bit for bit, and sample by seed', async () => {
  const dir = tempDir();
  const task = new ImageTask(set, held, { evalSize: 8 });
  for (const process of ['ddpm', 'bitdiff'] as const) {
    const config = { ...imageConfig(geometry, { size: 'tiny', process, steps: 8 }), evalEvery: 4 };
    assert.deepEqual(parseConfig(JSON.parse(JSON.stringify(config)), 'x'), config);
    assert.equal(config.model.anchors, undefined);
    assert.equal(config.model.anchorDim, undefined);
    const whole = join(dir, `${process}-whole`);
    const split = join(dir, `${process}-split`);
    const a = await train(whole, config, task, false);
    await train(split, config, task, false, { stopAfter: 3 });
    const b = await train(split, config, task, true);
    assert.deepEqual(b.losses, a.losses.slice(3), `${process}: resumed losses`);
    assert.ok(Number.isFinite(a.lastEval!.valid_loss!));
    const m = loadAnyImageModel(whole);
    assert.ok('diffusion' in m && m.diffusion.name === process);
    const o = { n: 3, nfe: 8, seed: 5 };
    const x = sampleAnyImages(m, o);
    assert.equal(x.images.length, 3 * 64);
    assert.ok(x.images.every((v) => v < 16));
    assert.deepEqual(sampleAnyImages(loadAnyImageModel(split), o).images, x.images);
    // one image's samples do not depend on the others
    assert.deepEqual(sampleAnyImages(m, { ...o, n: 1 }).images, x.images.subarray(0, 64));
    assert.throws(
      () => sampleAnyImages(m, { ...o, sampler: 'sjd' as const }),
      /samples by its own/,
    );
    assert.throws(() => sampleAnyImages(m, { ...o, topP: 0.9 }), /draws no categorical/);
  }
  // the SJD config keeps its anchors; a pixel config with them, or an SJD one without, is refused
  const sjdConfig = imageConfig(geometry, { size: 'tiny' });
  const bad = {
    ...imageConfig(geometry, { size: 'tiny', process: 'ddpm' }),
    model: sjdConfig.model,
  };
  assert.throws(
    () => parseConfig(bad, 'c.json'),
    /c.json: model.anchors: the ddpm process's network has no anchors/,
  );
  const bare = {
    ...sjdConfig,
    model: imageConfig(geometry, { size: 'tiny', process: 'ddpm' }).model,
  };
  assert.throws(() => parseConfig(bare, 'c.json'), /needs the network's anchors/);
});

test('sjd train/sample image --process ddpm|bitdiff end to end; what they do not take is refused in one line', () => {
  const dir = tempDir();
  const data = join(dir, 'train.sjdimg');
  saveImageSet(data, set, 'synthetic');
  const run = join(dir, 'ddpm');
  const t = sjd(
    'train',
    'image',
    '--process',
    'ddpm',
    '--size',
    'tiny',
    '--steps',
    '4',
    '--data',
    data,
    '--eval-data',
    data,
    '--out',
    run,
  );
  assert.equal(t.status, 0, t.stderr);
  const png = join(dir, 's.png');
  const s = sjd('sample', 'image', '--model', run, '--out', png, '-n', '2', '--nfe', '5');
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stdout, /2 images of 8 x 8 x 1, 16 levels, ancestral sampler, 5 NFE/);
  const refusals: [string[], RegExp][] = [
    [
      ['sample', 'image', '--model', run, '--out', join(dir, 'x.png'), '--sampler', 'mdlm'],
      /a ddpm model samples by its own ancestral step/,
    ],
    [
      ['sample', 'image', '--model', run, '--out', join(dir, 'x.png'), '--nfe', '1001'],
      /ddpm takes at most 1000 steps/,
    ],
    [
      ['train', 'image', '--process', 'bitdiff', '--blend', 'blur2d', '--out', join(dir, 'b')],
      /--blend blur2d: the bitdiff process has no blending matrix W/,
    ],
  ];
  // the same refusals in the library (no process start each)
  assert.throws(
    () => imageConfig(geometry, { process: 'ddpm', eta: 0.5 }),
    /--eta: the ddpm process has no eta/,
  );
  assert.throws(
    () => textConfig({ process: 'bitdiff' }),
    /acts on pixel values: it trains image models only/,
  );
  for (const [args, want] of refusals) {
    const r = sjd(...args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr, want);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});
