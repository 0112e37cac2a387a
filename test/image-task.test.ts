// The image task: tokens laid out site-major with a site's channels together (the
// blur's and the U-Net's layout) and back; training batches are training images; presets make
// valid configs for every size and process, the masked and CADD presets without a value mean;
// and the commands end to end on a small synthetic colour set written here: sjd train image,
// sample image (PNG grid and trace), train features, eval image (FD, KID, floor, ceiling), with
// one-line errors for bad input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { interpolatedEmbedding, resolveProcess } from '../src/process/index.js';
import {
  FASHION_MNIST_DIR,
  IMAGE_SIZES,
  ImageTask,
  imageConfig,
  imagesOf,
  saveImageSet,
  syntheticImages,
  tokensOf,
} from '../src/tasks/image/index.js';
import { imageBlendShape } from '../src/tasks/image/tokens.js';
import * as torch from '../src/torch/index.js';
import { parseConfig } from '../src/train/index.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args, '--threads', '1'], { encoding: 'utf8' });

const set = syntheticImages({ n: 96, channels: 3, height: 8, width: 8, levels: 16, seed: 1 });
const held = syntheticImages({ n: 96, channels: 3, height: 8, width: 8, levels: 16, seed: 2 });
const geometry = { height: 8, width: 8, channels: 3, levels: 16 };

test("tokens: site-major with a site's channels together, and back", () => {
  const tokens = tokensOf(set); // [n, 8 * 8 * 3]
  // image 5, channel 2, row 3, column 6 -> token (3 * 8 + 6) * 3 + 2 of sequence 5
  assert.equal(tokens[5 * 192 + (3 * 8 + 6) * 3 + 2], set.images[((5 * 3 + 2) * 8 + 3) * 8 + 6]);
  assert.deepEqual(imagesOf(tokens, set.n, geometry), set.images);
  assert.throws(() => imagesOf(tokens.subarray(1), set.n, geometry), /not 96 images of 8 x 8 x 3/);
});

test('a batch holds training images as int64 tokens', () => {
  const task = new ImageTask(set, held, { evalSize: 16 });
  assert.equal(task.length, 192);
  assert.equal(task.classes, 16);
  const { x0 } = task.batch(10, new torch.TorchGenerator(0));
  assert.deepEqual(x0.shape, [10, 192]);
  assert.equal(x0.dtype, 'int64');
  const rows = new Set(
    Array.from({ length: set.n }, (_, i) =>
      tokensOf(set)
        .subarray(i * 192, (i + 1) * 192)
        .join(),
    ),
  );
  const got = x0.toArray();
  for (let b = 0; b < 10; b++)
    assert.ok(rows.has(got.slice(b * 192, (b + 1) * 192).join()), `row ${b}`);
  const other = syntheticImages({ n: 4, channels: 1, height: 8, width: 8, levels: 16, seed: 3 });
  assert.throws(() => new ImageTask(set, other, { evalSize: 4 }), /held-out images 8 x 8 x 1/);
});

test('image presets: valid configs for every size and process; the value mean only with a blur', () => {
  for (const size of Object.keys(IMAGE_SIZES))
    for (const process of ['masked', 'hybrid', 'sjd'] as const) {
      const c = imageConfig(geometry, { size, process });
      assert.deepEqual(parseConfig(JSON.parse(JSON.stringify(c)), 'x'), c);
      assert.equal(c.process.mean, process === 'sjd' ? 'value' : undefined, `${size} ${process}`);
      // learned (CDCD-normalised) anchors; the blur's values embedded between them
      assert.equal(c.model.anchors, 'learned');
      assert.equal(c.process.valueEmbedding, process === 'sjd' ? 'anchors' : undefined);
      assert.equal(c.model.arch, 'unet');
    }
  const sjdDefault = imageConfig(geometry).process;
  assert.deepEqual(
    { blend: sjdDefault.blend, sigmaB: sjdDefault.sigmaB, sigmaW: sjdDefault.sigmaW },
    { blend: 'blur2d', sigmaB: 2.5, sigmaW: undefined }, // the blur B's bandwidth is sigma_B
  );
  assert.throws(
    () =>
      parseConfig(
        { ...imageConfig(geometry), model: { ...imageConfig(geometry).model, mults: [] } },
        'c.json',
      ),
    /c\.json: model\.mults: /,
  );
  // a key the U-Net does not read (a transformer's) is refused, not ignored
  assert.throws(
    () =>
      parseConfig(
        { ...imageConfig(geometry), model: { ...imageConfig(geometry).model, rotary: true } },
        'c.json',
      ),
    /c\.json: model: .*rotary/,
  );
});

test('sjd train image, sample image, train features and eval image end to end', () => {
  const dir = tempDir('sjd-image-cli-');
  const data = join(dir, 'train.safetensors');
  const test = join(dir, 'test.safetensors');
  saveImageSet(data, set, 'synthetic');
  saveImageSet(test, held, 'synthetic');
  const run = join(dir, 'run');
  const t = sjd(
    'train',
    'image',
    '--size',
    'tiny',
    '--data',
    data,
    '--eval-data',
    test,
    '--steps',
    '6',
    '--sigma-b',
    '2',
    '--out',
    run,
  );
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout + t.stderr, /finished at step 6; valid_loss \d/);
  // the blur B of pixel values has bandwidth sigma_B: the flag and config.json say so
  const saved = JSON.parse(readFileSync(join(run, 'config.json'), 'utf8')).process;
  assert.deepEqual(
    [saved.name, saved.blend, saved.sigmaB, saved.sigmaW],
    ['sjd', 'blur2d', 2, undefined],
  );
  assert.match(t.stderr, /SJD \(blur, sigma_B = 2\)/);
  // a run folder written before sigma_B (process.preset, the blur's sigmaW) resumes exactly
  const early = join(dir, 'early');
  const trainArgs = ['train', 'image', '--size', 'tiny', '--data', data, '--eval-data', test];
  const e1 = sjd(
    ...trainArgs,
    '--steps',
    '6',
    '--sigma-b',
    '2',
    '--stop-after',
    '3',
    '--out',
    early,
  );
  assert.equal(e1.status, 0, e1.stderr); // stopped with a checkpoint, as asked
  const config = JSON.parse(readFileSync(join(early, 'config.json'), 'utf8'));
  const { name, sigmaB, ...rest } = config.process;
  config.process = { preset: name, ...rest, sigmaW: sigmaB };
  writeFileSync(join(early, 'config.json'), JSON.stringify(config));
  const e2 = sjd(...trainArgs, '--resume', '--out', early);
  assert.equal(e2.status, 0, e2.stderr);
  assert.match(e2.stderr, /SJD \(blur, sigma_B = 2\)/);
  for (const f of ['model', 'ema']) {
    const weights = (r: string) =>
      torch.loadSafetensors(join(r, 'checkpoint', `${f}.safetensors`)).tensors;
    const [a, b] = [weights(run), weights(early)];
    for (const k of Object.keys(a)) assert.ok(a[k]!.equal(b[k]!), `${f} ${k}`);
  }
  const grid = join(dir, 'grid.png');
  const trace = join(dir, 'trace.png');
  const s = sjd(
    'sample',
    'image',
    '--model',
    run,
    '--out',
    grid,
    '--trace',
    trace,
    '-n',
    '6',
    '--nfe',
    '5',
    '--cols',
    '3',
  );
  assert.equal(s.status, 0, s.stderr);
  assert.match(
    s.stdout,
    /^wrote .*grid\.png and .*trace\.png: 6 images of 8 x 8 x 3, 16 levels, sjd sampler, 5 NFE/,
  );
  const png = PNG.sync.read(readFileSync(grid));
  assert.deepEqual([png.width, png.height], [3 * (8 * 2 + 2) + 2, 2 * (8 * 2 + 2) + 2]);
  assert.ok(PNG.sync.read(readFileSync(trace)).width > 0);
  // the same seed gives the same grid; an existing file is refused without --force
  const again = sjd(
    'sample',
    'image',
    '--model',
    run,
    '--out',
    grid,
    '-n',
    '6',
    '--nfe',
    '5',
    '--cols',
    '3',
  );
  assert.equal(again.status, 1);
  assert.match(again.stderr.trim(), /^sjd: .*grid\.png exists/);
  const grid2 = join(dir, 'grid2.png');
  assert.equal(
    sjd('sample', 'image', '--model', run, '--out', grid2, '-n', '6', '--nfe', '5', '--cols', '3')
      .status,
    0,
  );
  assert.deepEqual(readFileSync(grid2), readFileSync(grid));
  // top-p truncates every draw: a small nucleus changes the samples, 1 keeps them
  const grid3p = join(dir, 'grid-topp.png');
  const args = ['--model', run, '-n', '6', '--nfe', '5', '--cols', '3'];
  assert.equal(sjd('sample', 'image', ...args, '--out', grid3p, '--top-p', '0.3').status, 0);
  assert.notDeepEqual(readFileSync(grid3p), readFileSync(grid));
  const bad = sjd('sample', 'image', ...args, '--out', join(dir, 'x.png'), '--top-p', '1.5');
  assert.equal(bad.status, 2);
  assert.ok(!existsSync(join(dir, 'x.png')));
  const demo = join(dir, 'demo.png');
  const d = sjd('demo', 'image', '--model', run, '--out', demo, '--count', '4', '--nfe', '3');
  assert.equal(d.status, 0, d.stderr);
  assert.match(
    d.stdout,
    /sampled 4 images of 8 x 8 x 3, 16 levels with .* \(3 NFE\) in \d+\.\d s; wrote /,
  );
  assert.equal(PNG.sync.read(readFileSync(demo)).height, 2 * (8 * 2 + 2) + 2); // 2 x 2 grid
  // an exported (float16) image model samples like a run folder
  const exported = join(dir, 'exported');
  const x = sjd('export', '--run', run, '--out', exported);
  assert.equal(x.status, 0, x.stderr);
  const grid3 = join(dir, 'grid3.png');
  const y = sjd('sample', 'image', '--model', exported, '--out', grid3, '-n', '2', '--nfe', '3');
  assert.equal(y.status, 0, y.stderr);
  assert.match(y.stdout, /2 images of 8 x 8 x 3, 16 levels/);
  const feats = join(dir, 'features');
  const f = sjd(
    'train',
    'features',
    '--out',
    feats,
    '--data',
    data,
    '--eval-data',
    test,
    '--steps',
    '30',
    '--batch',
    '16',
  );
  assert.equal(f.status, 0, f.stderr);
  assert.match(f.stdout, /test accuracy \d+\.\d\d% on 96 images/);
  const e = sjd(
    'eval',
    'image',
    '--model',
    run,
    '--features',
    feats,
    '--data',
    data,
    '--eval-data',
    test,
    '-n',
    '40',
    '--nfe',
    '4',
    '--json',
  );
  assert.equal(e.status, 0, e.stderr);
  const j = JSON.parse(e.stdout.trim().split('\n').pop()!);
  for (const k of ['samples', 'floor', 'ceiling'])
    for (const m of ['fd', 'kid']) assert.equal(typeof j[k][m], 'number', `${k}.${m}`);
  assert.ok(
    j.floor.fd >= 0 && j.ceiling.fd > j.floor.fd,
    'marginals are further from the data than held-out images',
  );
  assert.equal(j.coverage.length, 3);
  assert.ok(Math.abs(j.coverage.reduce((a: number, b: number) => a + b, 0) - 1) < 1e-9);
  // bad input: one line, non-zero exit
  for (const [args, message] of [
    [
      ['train', 'image', '--size', 'huge', '--data', data, '--out', join(dir, 'x')],
      /argument 'huge' is invalid. expected one of paper, cpu, tiny/,
    ],
    [
      ['train', 'image', '--data', data, '--levels', '3', '--out', join(dir, 'y')],
      /argument '3' is invalid. expected a power of two from 2 to 256/,
    ],
    [
      ['train', 'image', '--data', data, '--levels', '8', '--out', join(dir, 'z')],
      /has 16 levels, not 8/,
    ],
    [
      [
        'train',
        'image',
        '--process',
        'sjd',
        '--blend',
        'sudoku',
        '--data',
        data,
        '--out',
        join(dir, 'w'),
      ],
      /the sudoku blend is for 81 cells, not 192/,
    ],
    [['sample', 'image', '--model', dir, '--out', join(dir, 'q.png')], /not a model or run folder/],
    [
      ['eval', 'image', '--model', run, '--features', dir, '-n', '40'],
      /not a feature network folder/,
    ],
  ] as const) {
    const r = sjd(...args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr.trim(), message);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('sjd compare image trains each model, scores it at each NFE (cached), and writes the table, plot and grids', {
  skip: existsSync(FASHION_MNIST_DIR) ? false : "Debian's dataset-fashion-mnist is not installed",
}, () => {
  const dir = tempDir('sjd-image-compare-');
  const doc = join(dir, 'doc', 'images.md');
  const args = [
    'compare',
    'image',
    '--out',
    join(dir, 'runs'),
    '--steps',
    '3',
    '--size',
    'tiny',
    '--limit',
    '64',
    '--eval-size',
    '16',
    '-n',
    '20',
    '--nfes',
    '2,4',
    '--models',
    'masked,sjd-2',
    '--doc',
    doc,
  ];
  const r = sjd(...args);
  assert.equal(r.status, 0, r.stderr);
  const md = readFileSync(doc, 'utf8');
  assert.match(md, /^\| MDLM \(masked\) \| \d+\.\d\d \| \d+\.\d\d \| -?\d+\.\d{4} \|/m);
  assert.match(md, /^\| SJD \(blur, sigma_B = 2\) \|/m);
  const sjd2 = JSON.parse(readFileSync(join(dir, 'runs', 'sjd-2-seed0', 'config.json'), 'utf8'));
  assert.equal(sjd2.process.sigmaB, 2); // the model name sjd-2 is the blur's sigma_B
  assert.match(md, /^\| floor: 20 test images \|/m);
  assert.match(
    md,
    /the `ancestral` sampler on a cosine grid \(MDLM's\nancestral sampler with top-p 0\.98/,
  );
  assert.match(
    md,
    /^- SJD \(blur, sigma_B = 2\) \d+\.\d\d \+- 0\.00 against MDLM \d+\.\d\d \+- 0\.00 \(1 and 1 seeds\): /m,
  );
  assert.match(md, /feature space of `models\/fashion-features` \(test accuracy 90\.\d%\)/);
  for (const f of ['images.svg', 'images-masked.png', 'images-sjd-2.png'])
    assert.ok(existsSync(join(dir, 'doc', f)), f);
  // a second report beside the first, over the same run sampled the same way, links the first's
  // grid rather than writing the same bytes twice; a report written again keeps its own grid. A
  // run whose weights stop short of --steps (being trained again elsewhere while its kept scores
  // serve) draws no grid
  const other = join(dir, 'doc', 'sjd-only.md');
  const state = join(dir, 'runs', 'masked-seed0', 'checkpoint', 'state.json');
  const trained = readFileSync(state, 'utf8');
  writeFileSync(state, JSON.stringify({ ...JSON.parse(trained), step: 1 }));
  const second = sjd(...args.map((a) => (a === doc ? other : a)));
  writeFileSync(state, trained);
  assert.equal(second.status, 0, second.stderr);
  const otherMd = readFileSync(other, 'utf8');
  assert.match(otherMd, /!\[sjd-2 samples\]\(images-sjd-2\.png\)/);
  assert.doesNotMatch(otherMd, /masked samples/);
  assert.match(otherMd, /^\| MDLM \(masked\) \|/m);
  for (const f of ['sjd-only-sjd-2.png', 'sjd-only-masked.png'])
    assert.ok(!existsSync(join(dir, 'doc', f)), f);
  copyFileSync(join(dir, 'doc', 'images-sjd-2.png'), join(dir, 'doc', 'a-copy.png'));
  const third = sjd(...args); // the first report again: trained and scored, read back, not redone
  assert.equal(third.status, 0, third.stderr);
  assert.doesNotMatch(third.stderr, /training|resuming/);
  assert.match(readFileSync(doc, 'utf8'), /!\[sjd-2 samples\]\(images-sjd-2\.png\)/);
  rmSync(join(dir, 'doc', 'a-copy.png'));
  // --top-p for the continuous models: scored again into their own cache beside the first,
  // the masked run's scores read back
  const runs = join(dir, 'runs');
  const cached = (m: string, f: string) => readFileSync(join(runs, `${m}-seed0`, f), 'utf8');
  const [sjdScores, maskedScores] = [
    cached('sjd-2', 'scores.json'),
    cached('masked', 'scores.json'),
  ];
  const nucleus = sjd(...args, '--top-p', '0.9');
  assert.equal(nucleus.status, 0, nucleus.stderr);
  assert.equal(JSON.parse(cached('sjd-2', 'scores-top-p0.9.json')).key.topP, 0.9);
  assert.ok(!existsSync(join(runs, 'masked-seed0', 'scores-top-p0.9.json')));
  assert.deepEqual(
    [cached('sjd-2', 'scores.json'), cached('masked', 'scores.json')],
    [sjdScores, maskedScores],
  );
  assert.match(
    readFileSync(doc, 'utf8'),
    /top-p 0\.98 for the masked model; top-p 0\.9 for the hybrid and SJD models\)/,
  );
  // runs kept without their weights (config and scores) resume elsewhere: nothing is trained,
  // the grids already drawn stay and the table is the same
  const kept = join(dir, 'kept');
  for (const m of ['masked', 'sjd-2']) {
    mkdirSync(join(kept, `${m}-seed0`), { recursive: true });
    for (const f of ['config.json', 'scores.json'])
      copyFileSync(join(runs, `${m}-seed0`, f), join(kept, `${m}-seed0`, f));
  }
  const grids = ['images-masked.png', 'images-sjd-2.png'].map((f) =>
    readFileSync(join(dir, 'doc', f)),
  );
  const keptRun = sjd(...args.map((a) => (a === runs ? kept : a)));
  assert.equal(keptRun.status, 0, keptRun.stderr);
  assert.doesNotMatch(keptRun.stderr, /training|resuming/);
  assert.ok(!existsSync(join(kept, 'masked-seed0', 'checkpoint')));
  assert.deepEqual(
    ['images-masked.png', 'images-sjd-2.png'].map((f) => readFileSync(join(dir, 'doc', f))),
    grids,
  );
  assert.match(readFileSync(doc, 'utf8'), /!\[sjd-2 samples\]\(images-sjd-2\.png\)/);
  // a scoring stopped after some NFEs keeps those: only the rest are scored (NFE 2's, marked
  // here, is read back as it is; NFE 4's is scored again, the same as before)
  const file = join(runs, 'sjd-2-seed0', 'scores.json');
  const whole = JSON.parse(readFileSync(file, 'utf8'));
  const two = { ...whole.value['2'], samples: { ...whole.value['2'].samples, fd: 123.456 } };
  writeFileSync(file, JSON.stringify({ key: whole.key, value: { 2: two } }));
  const rescored = sjd(...args);
  assert.equal(rescored.status, 0, rescored.stderr);
  const value = JSON.parse(readFileSync(file, 'utf8')).value;
  assert.deepEqual(value['2'], two);
  assert.equal(value['4'].samples.fd, whole.value['4'].samples.fd);
  const bad = sjd('compare', 'image', '--out', join(dir, 'x'), '--steps', '1', '--models', 'sjd-0');
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr.trim(), /unknown model 'sjd-0'/);
});

test('interpolated value embedding: integer values land on their anchors, a fraction on the chord between neighbours; gradients reach the anchors', () => {
  const E = torch.tensor([0, 0, 1, 0, 1, 1, 0, 2], [4, 2], 'float64').requiresGrad_(true); // [4, 2]
  const v = torch.tensor([0, 1, 3, 1.25, 2.5, -1, 9], [7], 'float64');
  const got = interpolatedEmbedding(v, E).toArray();
  const want = [0, 0, 1, 0, 0, 2, 1, 0.25, 0.5, 1.5, 0, 0, 0, 2];
  for (const [k, x] of got.entries()) assert.ok(Math.abs(x - want[k]!) < 1e-12, `entry ${k}: ${x}`);
  interpolatedEmbedding(torch.tensor([1.25], [1], 'float64'), E)
    .sum()
    .backward();
  assert.deepEqual(E.grad!.toArray(), [0, 0, 0.75, 0.75, 0.25, 0.25, 0, 0]);
  // the process embeds a blurred mean this way with learned anchors
  const c = imageConfig(geometry, { size: 'tiny', process: 'sjd' });
  const proc = resolveProcess(c.process, imageBlendShape(geometry));
  const x0 = torch.tensor(
    Array.from({ length: 192 }, (_, i) => i % 4),
    [1, 192],
    'int64',
  );
  const mu = proc.tokenMean(x0, E.detach()); // [1, 192, 2]
  const direct = interpolatedEmbedding(
    proc.blend.apply(x0.to('float64').unsqueeze(-1)).squeeze(-1),
    E.detach(),
  );
  assert.ok(mu.sub(direct).abs().amax().item() < 1e-12);
});
