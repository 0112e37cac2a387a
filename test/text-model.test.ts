// The text denoiser and task (app:text8): DiT blocks with adaLN-zero start as the identity and
// equal their formula once the modulation is non-zero; the adaLN denoiser ignores t at
// initialisation and learns to use it; training windows are contiguous pieces of the training
// split; the held-out loss is deterministic; a tiny masked model learns a periodic text and
// its samples (MDLM ancestral sampler) are dictionary words; frontier maxima, overall and at a
// diversity floor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiTBlock, modulate } from '../src/model/dit-block.js';
import type { Network } from '../src/model/network.js';
import { corrupt } from '../src/process/index.js';
import { decode } from '../src/tasks/text/corpus.js';
import { frontierMaxima } from '../src/tasks/text/frontier.js';
import { textConfig } from '../src/tasks/text/presets.js';
import { sampleText } from '../src/tasks/text/sample.js';
import { TextTask, textShape } from '../src/tasks/text/task.js';
import * as torch from '../src/torch/index.js';
import { buildModel, buildProcess, train } from '../src/train/index.js';
import { loadModel } from '../src/train/model-io.js';
import { tempDir } from './tmp.js';

const maxDiff = (a: torch.Tensor, b: torch.Tensor) => a.sub(b).abs().amax().item();

test('a DiT block with zero modulation is the identity; otherwise x + g1 attn(mod ln x), + g2 mlp(mod ln .)', () => {
  const gen = new torch.TorchGenerator(1);
  const block = new DiTBlock({ dim: 16, heads: 2, mlpHidden: 32, gen });
  const x = gen.randn([3, 5, 16]);
  const c = gen.randn([3, 16]);
  assert.equal(maxDiff(block.forward(x, c), x), 0);
  torch.noGrad(() => block.ada.weight.copy_(gen.randn([96, 16]).mul(0.3)));
  const [s1, sc1, g1, s2, sc2, g2] = block.ada.forward(c.silu()).unsqueeze(1).chunk(6, -1);
  const h = x.add(g1!.mul(block.attn.forward(modulate(block.ln1.forward(x), s1!, sc1!))));
  const want = h.add(g2!.mul(block.mlp.forward(modulate(block.ln2.forward(h), s2!, sc2!))));
  assert.ok(maxDiff(block.forward(x, c), want) < 1e-6);
  assert.ok(maxDiff(block.forward(x, c), x) > 1e-2);
});

const corpus = (() => {
  const text = 'the house of the people and the senate '.repeat(400).trim();
  const n = text.length;
  return {
    train: text.slice(0, Math.floor(n * 0.9)),
    valid: text.slice(Math.floor(n * 0.9), Math.floor(n * 0.95)),
    test: text.slice(Math.floor(n * 0.95)),
    source: 'test',
  };
})();
const opts = { length: 24, evalWindows: 8, evalSamples: 4, evalNfe: 8, evalTemperature: 1 };

test('the adaLN denoiser ignores t at initialisation and depends on it after training steps', async () => {
  const task = new TextTask(corpus, opts);
  const config = textConfig({ size: 'tiny', process: 'sjd', bandwidth: 1, steps: 30 });
  const model = buildModel(task, config.model, new torch.TorchGenerator(0));
  const gen = new torch.TorchGenerator(2);
  const y = gen.randn([2, 24, 16]);
  const at = (m: Network, t: number) => torch.noGrad(() => m.forward(y, torch.full([2], t)));
  assert.equal(maxDiff(at(model, 0.1), at(model, 0.9)), 0);
  const dir = tempDir('sjd-text-');
  await train(dir, { ...config, length: 24 } as typeof config, task, false, {});
  const { model: trained } = loadModel(dir, textShape, 'text');
  assert.ok(maxDiff(at(trained, 0.1), at(trained, 0.9)) > 1e-4);
});

test('training windows are contiguous pieces of the training split; the held-out loss is deterministic', () => {
  const task = new TextTask(corpus, opts);
  const x0 = task.batch(6, new torch.TorchGenerator(3)).x0;
  assert.deepEqual(x0.shape, [6, 24]);
  const tokens = x0.toArray();
  for (let b = 0; b < 6; b++)
    assert.ok(corpus.train.includes(decode(tokens.slice(b * 24, b * 24 + 24))));
  const model = buildModel(
    task,
    textConfig({ size: 'tiny', process: 'hybrid' }).model,
    new torch.TorchGenerator(0),
  );
  const proc = buildProcess(task, textConfig({ size: 'tiny', process: 'hybrid' }).process);
  const a = task.heldOutLoss(model, proc);
  assert.equal(task.heldOutLoss(model, proc), a);
  assert.ok(Math.abs(a - Math.log(27)) < 0.5, `initial loss ${a} vs log 27`);
  assert.throws(
    () => new TextTask({ ...corpus, train: 'short' }, opts),
    /the training split has 5, fewer than two windows of \d+; train with --length 2 or less, or on a larger corpus/,
  );
  assert.throws(
    () => new TextTask({ ...corpus, valid: 'a short one' }, opts).heldOutLoss(model, proc),
    /the held-out split has 11, fewer than one window of 24; train with --length 11 or less, or make the corpus again holding out more, `--hold-out 48` \(sjd data text or data tokens;/,
  );
  assert.throws(
    () => buildProcess(task, { name: 'sjd', blend: 'sudoku', sigmaW: 1 }),
    /the sudoku blend is for 81 cells, not 24/,
  );
});

test('a tiny masked model learns a periodic text: it denoises, and some samples are dictionary words', async () => {
  const text = 'hello world '.repeat(400);
  const periodic = {
    train: text,
    valid: text.slice(0, 600),
    test: text.slice(0, 600),
    source: 'test',
  };
  const task = new TextTask(periodic, { ...opts, length: 16 });
  const base = textConfig({ size: 'tiny', process: 'masked', steps: 600 });
  const config = {
    ...base,
    length: 16,
    batch: 32,
    model: { ...base.model, width: 64, mlpHidden: 128, heads: 4 },
    lr: { ...base.lr, lr: 3e-3 },
    evalEvery: 1000,
  };
  const dir = tempDir('sjd-text-');
  const r = await train(dir, config, task, false, {});
  const early = r.losses.slice(0, 10).reduce((a, b) => a + b) / 10;
  const late = r.losses.slice(-20).reduce((a, b) => a + b) / 20;
  assert.ok(late < early * 0.5, `loss ${early} -> ${late}`);
  const { model, process: proc } = loadModel(dir, textShape, 'text');
  // one-step denoising at t = 0.3 (30% masked): measured 0.99; an untrained model guesses (~0.2)
  const gen = new torch.TorchGenerator(5);
  const x0 = task.batch(64, gen).x0;
  const t = new Float64Array(64).fill(0.3);
  const { y, stuck, lossMask } = corrupt(proc, x0, model.anchors.forward(), t, gen);
  const logits = torch.noGrad(() => model.forward(y.to('float32'), torch.full([64], 0.3), stuck));
  const acc = logits.argmax(-1).eq(x0).logicalAnd(lossMask).sum().item() / lossMask.sum().item();
  assert.ok(acc > 0.9, `accuracy ${acc}`);
  const { texts } = sampleText(model, proc, { n: 16, nfe: 64, temperature: 0.5, seed: 0 });
  const score = task.scorer.score(texts);
  // measured 0.25-0.8 depending on the run; an untrained model scores 0
  assert.ok(
    score.valid_words5 > 0.05,
    `valid words ${score.valid_words5}: ${texts.slice(0, 3).join(' | ')}`,
  );
});

test("the text processes: masked; hybrid and sjd on the paper's rank-degradation schedule unless linear is asked", () => {
  const rank = { kind: 'rank', rMin: 0.05, rMax: 0.4, anchorDim: 64, T: 1 };
  assert.deepEqual(textConfig({ size: 'tiny', process: 'masked' }).process, { name: 'masked' });
  assert.deepEqual(textConfig({ size: 'cpu', process: 'hybrid' }).process, {
    name: 'hybrid',
    vp: rank,
  });
  assert.deepEqual(textConfig({ size: 'tiny', process: 'hybrid' }).process.vp, {
    ...rank,
    anchorDim: 16,
  }); // the size's d
  assert.deepEqual(textConfig({ size: 'cpu', process: 'sjd', bandwidth: 2 }).process, {
    name: 'sjd',
    blend: 'gauss1d-row',
    sigmaW: 2,
    vp: rank,
  });
  assert.equal(textConfig({ process: 'sjd', blend: 'gauss1d' }).process.blend, 'gauss1d');
  const linear = textConfig({ size: 'tiny', process: 'hybrid', schedule: 'linear' }).process;
  assert.deepEqual(linear.vp, { betaMin: 0.1, betaMax: 20, T: 1 });
  const shape = textShape({ task: 'text', length: 16 });
  const proc = buildProcess(shape, textConfig({ size: 'cpu', process: 'hybrid' }).process);
  assert.equal(proc.vp.alpha(0).toFixed(4), '0.2792'); // sqrt(SNR/(1+SNR)), SNR = 2 z(0.05)^2/64
  assert.throws(
    () => textConfig({ size: 'tiny', process: 'hybrid', schedule: 'cubic' }),
    /unknown schedule 'cubic'/,
  );
});

test('frontier maxima: per NFE the best valid-word fractions, optionally among points at least as diverse as a floor', () => {
  const pt = (nfe: number, valid_words5: number, valid_words6: number, unique_words: number) => ({
    nfe,
    temperature: 0.5,
    valid_words5,
    valid_words6,
    unique_words,
    samples: 4,
    chars_per_s: 1,
  });
  const points = [
    pt(32, 0.4, 0.1, 0.3),
    pt(32, 0.2, 0.3, 0.85),
    pt(32, 0.1, 0.05, 0.9),
    pt(64, 0.5, 0.5, 0.5),
  ];
  assert.deepEqual(frontierMaxima(points), {
    32: { valid_words5: 0.4, valid_words6: 0.3 },
    64: { valid_words5: 0.5, valid_words6: 0.5 },
  });
  assert.deepEqual(frontierMaxima(points, 0.8), { 32: { valid_words5: 0.2, valid_words6: 0.3 } });
  assert.deepEqual(frontierMaxima(points, 0.95), {});
});
