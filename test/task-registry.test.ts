// The task registry: a fourth task is its spec and one registerTask call. A toy task
// (repeats: every site the same token a, uniform over 4, 8 sites) is registered here, trained through
// `sjd train`'s own command body (the subcommand the registry loop makes), sampled through its
// spec, and served by `sjd serve`'s app (GET /api/models, POST /api/repeat/sample), whose answer is
// the spec's for the same seed. A trained model's samples are repeats (at least 3 in 4; an untrained one, 1 in 4^7), so the
// loop runs the real training and sampling, not a stand-in. Also: the registry refuses a taken or
// ill-formed name, and the page's tabs are the shipped tasks.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Command } from 'commander';
import { registerTrain } from '../src/cli/train.js';
import type { Network } from '../src/model/network.js';
import type { SJDProcess } from '../src/process/index.js';
import {
  drain,
  SAMPLING_DEFAULTS,
  sampleBatchSteps,
  unconditionalSampling,
} from '../src/sampling/index.js';
import { buildApp, TASKS } from '../src/serve/index.js';
import {
  registerTask,
  TASK_SPECS,
  type TaskSpec,
  taskSpec,
  taskSpecs,
} from '../src/tasks/registry.js';
import { type TorchGenerator, tensor } from '../src/torch/index.js';
import {
  loadTransformer,
  type ProcessDefaults,
  presetConfig,
  type Size,
  type TaskShape,
  type TrainTask,
} from '../src/train/index.js';
import { SETTINGS } from './settings.js';
import { tempDir } from './tmp.js';

const L = 8;
const K = 4;
const repeatShape: TaskShape = { name: 'repeat', length: L, classes: K };

/** The fraction of rows that are repeats. */
const repeats = (rows: number[][]) =>
  rows.filter((r) => r.every((v) => v === r[0])).length / rows.length;

/** Every row one token repeated, the token uniform: x0 [B, L] int64. */
class RepeatTask implements TrainTask {
  readonly name = 'repeat';
  readonly length = L;
  readonly classes = K;
  readonly dataHash = 'repeat-1';
  readonly evalMetrics = ['repeats'];
  batch(size: number, gen: TorchGenerator) {
    const a = gen.randint(0, K, [size]).toArray() as number[];
    const data = a.flatMap((s) => Array.from({ length: L }, () => s));
    return { x0: tensor(data, [size, L], 'int64') };
  }
  evaluate(model: Network, proc: SJDProcess): Record<string, number> {
    const o = unconditionalSampling(proc, { n: 16, nfe: 32, seed: 7 });
    return { repeats: repeats(drain(sampleBatchSteps(model, proc, o), false).rows) };
  }
}

const tiny: Size = {
  model: {
    size: 'tiny',
    anchorDim: 16,
    anchors: 'learned',
    structure: false,
    conditioning: 'adaln',
    rotary: true,
    width: 32,
    depth: 1,
    heads: 2,
    mlpHidden: 64,
    dropout: 0,
  },
  length: L,
  batch: 32,
  steps: 1000,
  lr: { kind: 'constant', lr: 3e-3, warmup: 10, total: 1000 },
  ema: 0.9,
  weightDecay: 0,
  clip: 1,
  timeSampling: 'antithetic',
  logEvery: 50,
  evalEvery: 500,
  checkpointEvery: 500,
};
const defaults: ProcessDefaults = {
  process: 'masked',
  blend: 'identity',
  bandwidth: 1,
  schedule: 'linear',
};

const repeatSpec: TaskSpec = {
  name: 'repeat',
  shape: () => repeatShape,
  load: (dir) => loadTransformer(dir!, repeatShape, 'repeat'),
  sampling: { ...SAMPLING_DEFAULTS, nfe: () => 32 },
  train: {
    description: 'train a denoiser of repeats (a toy)',
    sizes: { tiny },
    defaults,
    prepare: (o, saved) => ({
      config:
        saved ??
        presetConfig(
          { name: 'repeat', label: 'repeat', sizes: { tiny }, defaults },
          () => ({ length: L }),
          o,
        ),
      task: new RepeatTask(),
      about: 'repeats of 4 tokens',
    }),
  },
  *sampleSteps(m, s) {
    const o = { ...s, batchSize: s.n };
    const { rows, nfe } = yield* sampleBatchSteps(m.model, m.process, o);
    return { answer: { rows }, nfe };
  },
};

test('the registry: the shipped tasks, a fourth one added, names checked', () => {
  assert.deepEqual(Object.keys(TASK_SPECS), [...TASKS]); // the page's tabs are the shipped tasks
  registerTask(repeatSpec);
  assert.deepEqual(
    taskSpecs().map((s) => s.name),
    ['sudoku', 'text', 'image', 'sequences', 'repeat'],
  );
  assert.equal(taskSpec('repeat'), repeatSpec);
  assert.throws(() => registerTask(repeatSpec), /^Error: task 'repeat' is already registered$/);
  assert.throws(() => registerTask({ ...repeatSpec, name: 'Bad name' }), /lower-case letters/);
  assert.throws(
    () => taskSpec('nope'),
    /unknown task 'nope' \(known: sudoku, text, image, sequences, repeat\)/,
  );
});

test('a registered task trains by `sjd train`, samples by its spec and is served', async () => {
  const models = tempDir('sjd-registry-');
  mkdirSync(models, { recursive: true });
  const dir = join(models, 'repeat');

  // `sjd train repeat`: the subcommand the registry loop made, run with the shared body.
  const program = new Command().exitOverride();
  registerTrain(program);
  const train = program.commands.find((c) => c.name() === 'train')!;
  assert.deepEqual(
    train.commands.map((c) => c.name()),
    ['sudoku', 'text', 'image', 'sequences', 'repeat'],
  );
  await program.parseAsync(['train', 'repeat', '--out', dir, '--size', 'tiny'], { from: 'user' });
  assert.equal(process.exitCode ?? 0, 0);

  // Its spec loads and samples the trained model: repeats, not noise.
  const m = repeatSpec.load(dir);
  assert.equal(m.config.task, 'repeat');
  const settings = { ...SETTINGS, n: 4, nfe: 32, sampler: 'mdlm' as const, seed: 3 };
  const direct = drain(repeatSpec.sampleSteps!(m, settings), false);
  const more = drain(repeatSpec.sampleSteps!(m, { ...settings, n: 64 }), false);
  assert.ok(
    repeats(more.answer.rows as number[][]) >= 3 / 4,
    `repeats ${repeats(more.answer.rows as number[][])}`,
  );

  // `sjd serve` loads it from models/repeat, lists it, and samples it as the spec does.
  const { app } = await buildApp({ models });
  try {
    const info = (await app.inject({ method: 'GET', url: '/api/models' })).json();
    assert.equal(info.tasks.repeat.available, true);
    assert.equal(info.tasks.repeat.process, 'masked');
    assert.deepEqual(info.tasks.repeat.defaults, {
      sampler: 'mdlm' as const,
      nfe: 32,
      temperature: 1,
      topP: 1,
      grid: 'cosine',
    });
    assert.equal(info.tasks.repeat.length, L);
    assert.equal(info.tasks.text.available, false); // this folder holds the toy only
    const res = await app.inject({
      method: 'POST',
      url: '/api/repeat/sample',
      payload: { n: 4, seed: 3 },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.rows, direct.answer.rows);
    assert.equal(body.nfe_used, direct.nfe);
    assert.deepEqual(
      { n: body.n, nfe: body.nfe, sampler: body.sampler, seed: body.seed },
      { n: 4, nfe: 32, sampler: 'mdlm' as const, seed: 3 },
    );
    const bad = await app.inject({ method: 'POST', url: '/api/repeat/sample', payload: { n: 99 } });
    assert.equal(bad.statusCode, 400);
  } finally {
    await app.close();
  }
});
