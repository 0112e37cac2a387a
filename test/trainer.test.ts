// The training loop on a toy task: it learns; the run folder holds config, manifest, metrics
// and plot; resume is exact (same losses and weights as an uninterrupted run), also after a
// SIGINT; bad invocations are refused with clear errors.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { trainUnlessScored } from '../src/lab/index.js';
import { modelClassifier, sample } from '../src/sampling/index.js';
import * as torch from '../src/torch/index.js';
import { finishedStep, type TrainConfig, type TrainTask, train } from '../src/train/index.js';
import { checkoutCommit } from '../src/train/manifest.js';
import { SETTINGS } from './settings.js';
import { tempDir } from './tmp.js';

// x_i = (x_0 + i) mod K: one free token per sequence, the rest determined by it.
const L = 6;
const K = 5;
const toy: TrainTask = {
  name: 'toy-shift',
  length: L,
  classes: K,
  structure: [Array.from({ length: L }, (_, i) => i % 2)],
  dataHash: 'toy',
  evalMetrics: ['board_accuracy'],
  takeoffMetric: 'board_accuracy',
  batch: (size, gen) => {
    const start = gen.randint(0, K, [size, 1]);
    return { x0: start.add(torch.arange(0, L).view([1, L])).remainder(K) };
  },
  evaluate: (model, proc, step) => {
    const r = sample({
      ...SETTINGS,
      process: proc,
      classifier: modelClassifier(model),
      anchors: model.anchors.forward(),
      batch: 64,
      length: L,
      nfe: 16,
      seed: step,
    });
    const ok = r.tokens
      .sub(r.tokens.narrow(1, 0, 1))
      .remainder(K)
      .eq(torch.arange(0, L).remainder(K).view([1, L]))
      .all(1);
    return { board_accuracy: ok.to('float64').mean().item() };
  },
};

const config = (steps: number): TrainConfig => ({
  task: 'toy-shift',
  seed: 7,
  process: { name: 'sjd', blend: 'gauss1d', sigmaW: 1 },
  model: {
    size: 'tiny',
    structure: true,
    anchorDim: 8,
    anchors: 'learned',
    width: 32,
    depth: 2,
    heads: 4,
    mlpHidden: 64,
    dropout: 0,
  },
  batch: 32,
  steps,
  lr: { kind: 'constant', lr: 3e-3, warmup: 10, total: steps },
  weightDecay: 0.01,
  clip: 1,
  ema: 0.9,
  timeSampling: 'antithetic',
  logEvery: 5,
  evalEvery: 40,
  checkpointEvery: 7,
});

const fresh = () => tempDir('sjd-train-');

test('the toy task is learned; the run folder holds config, manifest, metrics.csv, metrics.svg, checkpoint', async () => {
  const dir = fresh();
  const r = await train(dir, config(400), toy, false);
  assert.equal(r.step, 400);
  const first = r.losses.slice(0, 10).reduce((a, b) => a + b) / 10;
  const last = r.losses.slice(-10).reduce((a, b) => a + b) / 10;
  assert.ok(last < 0.9 * first, `loss ${first} -> ${last}`); // bounded below: the free token is uniform
  assert.ok(r.lastEval!.board_accuracy! > 0.3, `board accuracy ${r.lastEval!.board_accuracy}`);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  assert.equal(manifest.seed, 7);
  assert.equal(manifest.dataHash, 'toy');
  // this checkout's commit (a clone has its .git; a tree copied without it records none)
  assert.equal(manifest.commit, checkoutCommit());
  if (manifest.commit !== undefined) assert.match(manifest.commit, /^[0-9a-f]{40}$/);
  assert.equal(
    manifest.sjd,
    JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
  );
  // installed (no .git at the package's root, even inside a user's repository): no commit
  const installed = fresh();
  mkdirSync(join(installed, 'node_modules', 'sjd'), { recursive: true });
  assert.equal(checkoutCommit(join(installed, 'node_modules', 'sjd')), undefined);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')), config(400));
  const csv = readFileSync(join(dir, 'metrics.csv'), 'utf8').trim().split('\n');
  assert.equal(csv[0], 'step,loss,lr,tokens_per_s,board_accuracy');
  assert.equal(csv.length, 1 + 80);
  assert.match(readFileSync(join(dir, 'metrics.svg'), 'utf8'), /^<svg/);
  for (const f of ['model', 'ema', 'optim', 'rng'])
    assert.ok(existsSync(join(dir, 'checkpoint', `${f}.safetensors`)), f);
});

test('resume is exact: 9 + 11 steps give the losses and weights of 20 uninterrupted steps (also from a config.json under the earlier names)', async () => {
  const a = fresh();
  const full = await train(a, config(20), toy, false);
  const b = fresh();
  const part1 = await train(b, config(20), toy, false, { stopAfter: 9 });
  assert.equal(part1.step, 9);
  // the run folder as earlier code wrote it (process.preset): it resumes the same
  const saved = JSON.parse(readFileSync(join(b, 'config.json'), 'utf8'));
  const { name, ...rest } = saved.process;
  writeFileSync(
    join(b, 'config.json'),
    JSON.stringify({ ...saved, process: { preset: name, ...rest } }),
  );
  const part2 = await train(b, config(20), toy, true);
  assert.deepEqual([...part1.losses, ...part2.losses], full.losses);
  const wa = torch.loadSafetensors(join(a, 'checkpoint', 'model.safetensors')).tensors;
  const wb = torch.loadSafetensors(join(b, 'checkpoint', 'model.safetensors')).tensors;
  for (const k of Object.keys(wa)) assert.ok(wa[k]!.equal(wb[k]!), k);
  const rows = readFileSync(join(b, 'metrics.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]));
  assert.deepEqual(rows, [5, 10, 15, 20], 'metrics rows after the checkpoint are not duplicated');
  // Every logged value but the wall-clock throughput matches, including the row whose logging
  // window (steps 6-10) straddles the stop at step 9: the window's running loss is checkpointed.
  const logged = (dir: string) =>
    readFileSync(join(dir, 'metrics.csv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(',').filter((_, i) => i !== 3)); // drop tokens_per_s
  assert.deepEqual(logged(b), logged(a));
});

test('SIGINT checkpoints at once; the resumed run matches an uninterrupted one', async () => {
  const a = fresh();
  const full = await train(a, config(12), toy, false);
  const b = fresh();
  const part1 = await train(b, config(12), toy, false, {
    progress: (step) => {
      if (step === 4) process.emit('SIGINT');
    },
  });
  assert.equal(part1.interrupted, true);
  assert.equal(part1.step, 4);
  const part2 = await train(b, config(12), toy, true);
  assert.deepEqual([...part1.losses, ...part2.losses], full.losses);
});

test('refuses to overwrite a run, and to resume nothing', async () => {
  const dir = fresh();
  await assert.rejects(train(dir, config(5), toy, true), /--resume: no checkpoint in/);
  await train(dir, config(3), toy, false);
  await assert.rejects(train(dir, config(5), toy, false), /already holds a run; pass --resume/);
  const mine = fresh();
  writeFileSync(join(mine, 'notes.txt'), 'my notes');
  await assert.rejects(train(mine, config(3), toy, false), /is not empty; choose another --out/);
  assert.equal(readFileSync(join(mine, 'notes.txt'), 'utf8'), 'my notes');
});

test('a run stopped before its first checkpoint starts over with a fresh metrics.csv', async () => {
  const dir = fresh();
  await train(dir, config(20), toy, false, { stopAfter: 12 });
  rmSync(join(dir, 'checkpoint'), { recursive: true }); // killed before its first checkpoint
  await train(dir, config(20), toy, false);
  const steps = readFileSync(join(dir, 'metrics.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]));
  assert.deepEqual(steps, [5, 10, 15, 20]);
});

test('a run kept without its weights is trained again; its cached results stand only if the run repeats', async () => {
  // keep-results.sh keeps config, manifest, metrics and caches: the checkpoint is dropped
  const keep = async (tamper: boolean) => {
    const dir = fresh();
    await train(dir, config(10), toy, false);
    rmSync(join(dir, 'checkpoint'), { recursive: true });
    rmSync(join(dir, 'metrics.svg'));
    writeFileSync(join(dir, 'scores.json'), '{"cached": 1}');
    if (tamper) {
      const csv = readFileSync(join(dir, 'metrics.csv'), 'utf8').trimEnd().split('\n');
      const last = csv.at(-1)!.split(',');
      last[1] = String(Number(last[1]) + 1e-6); // the loss of another run
      writeFileSync(
        join(dir, 'metrics.csv'),
        `${[...csv.slice(0, -1), last.join(',')].join('\n')}\n`,
      );
    }
    return dir;
  };
  const lines: string[] = [];
  const same = await keep(false);
  assert.equal(
    await trainUnlessScored(same, config(10), toy, false, { log: (l) => lines.push(l) }),
    true,
  );
  assert.equal(readFileSync(join(same, 'scores.json'), 'utf8'), '{"cached": 1}');
  assert.equal(existsSync(join(same, 'kept-metrics.csv')), false);
  assert.equal(finishedStep(same), 10);
  assert.match(lines.join('\n'), /repeats the kept run \(step 10\); its cached results stand/);

  const other = await keep(true);
  assert.equal(await trainUnlessScored(other, config(10), toy, false), true);
  assert.equal(existsSync(join(other, 'scores.json')), false);
  assert.equal(readFileSync(join(other, 'scores.json.stale'), 'utf8'), '{"cached": 1}');

  // a scored run is not trained; a kept run under another config is refused, left as it was
  const scored = await keep(false);
  assert.equal(await trainUnlessScored(scored, config(10), toy, true), true);
  assert.equal(existsSync(join(scored, 'checkpoint')), false);
  await assert.rejects(
    trainUnlessScored(scored, { ...config(10), seed: 8 }, toy, false),
    /holds results kept under another config; move it away/,
  );
  assert.equal(existsSync(join(scored, 'kept-metrics.csv')), false);
});

test('learning-rate schedules: linear warmup, cosine to the floor, constant', async () => {
  const { learningRate } = await import('../src/train/schedule.js');
  const s = { kind: 'cosine' as const, lr: 1, warmup: 10, total: 110, minLr: 0.1 };
  assert.equal(learningRate(s, 0), 0.1);
  assert.equal(learningRate(s, 9), 1);
  assert.ok(Math.abs(learningRate(s, 60) - 0.55) < 1e-12);
  assert.ok(Math.abs(learningRate(s, 110) - 0.1) < 1e-12);
  assert.equal(learningRate({ ...s, kind: 'constant' }, 500), 1);
});

test('EMA: shadow <- d shadow + (1 - d) param with the decay warming up as (1 + n) / (10 + n)', async () => {
  const { EMA } = await import('../src/train/ema.js');
  const lin = new torch.nn.Linear(1, 1, { bias: false, gen: new torch.TorchGenerator(1) });
  const w0 = lin.weight.item();
  const ema = new EMA(lin, 0.99);
  torch.noGrad(() => lin.weight.fill_(w0 + 1));
  ema.update(1); // decay 2/11
  const d = 2 / 11;
  assert.ok(Math.abs(ema.shadow.get('weight')!.item() - (d * w0 + (1 - d) * (w0 + 1))) < 1e-6);
  ema.update(10_000); // decay 0.99 (the cap)
  const s1 = d * w0 + (1 - d) * (w0 + 1);
  assert.ok(Math.abs(ema.shadow.get('weight')!.item() - (0.99 * s1 + 0.01 * (w0 + 1))) < 1e-6);
  assert.throws(() => new EMA(lin, 1), /EMA decay must be in \[0, 1\)/);
});
