// Autocast (src/torch/native.ts) and the networks' compute precision (src/model/precision.ts):
// matrix products in bfloat16 inside the scope and float32 after it, float64 left alone, the
// state before restored, the weights' cached casts dropped between scopes (an optimiser's update
// is seen); a bfloat16 DiT's logits are float32 and near the float32 network's; `sjd train
// --precision bfloat16` records it, repeats exactly, and a resume at another precision is refused;
// a new run without the flag trains at the default setting (auto, or SJD_PRECISION's);
// `sjd export --precision` sets the precision a model samples at.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { torch } from '../src/index.js';
import { AUTO_TRAINING_KEEPS_FLOAT32, resolvePrecision } from '../src/model/auto-precision.js';
import { atPrecision } from '../src/model/precision.js';
import { UNetDenoiser } from '../src/model/unet.js';
import { buildModel } from '../src/train/build.js';
import { sjd } from './serve-fixture.js';
import { cliIn } from './sjd-cli.js';
import { tempDir } from './tmp.js';

const { autocast, TorchGenerator, linear, noGrad, tensor } = torch;

const ramp = (n: number, scale: number) =>
  Array.from({ length: n }, (_, i) => Math.sin(i + 1) * scale);

test('autocast: products in bfloat16 inside, float32 after, float64 untouched, the state before restored', () => {
  const x = tensor(ramp(12, 1), [3, 4]);
  const w = tensor(ramp(8, 0.5), [2, 4]);
  const x64 = x.to('float64');
  autocast('bfloat16', () => {
    assert.equal(linear(x, w).dtype, 'bfloat16');
    assert.equal(x.matmul(w.transpose(0, 1)).dtype, 'bfloat16');
    assert.equal(x64.matmul(x64.transpose(0, 1)).dtype, 'float64'); // ATen's rule: float64 is not cast
    autocast('bfloat16', () => assert.equal(linear(x, w).dtype, 'bfloat16'));
    assert.equal(linear(x, w).dtype, 'bfloat16'); // the inner scope restored the outer one
  });
  assert.equal(linear(x, w).dtype, 'float32');
  assert.equal(autocast(null, () => linear(x, w)).dtype, 'float32');
  // a throw inside still restores
  assert.throws(() =>
    autocast('bfloat16', () => {
      throw new Error('inside');
    }),
  );
  assert.equal(linear(x, w).dtype, 'float32');
  assert.throws(
    () => autocast('float32' as 'bfloat16', () => 0),
    /autocast: the dtype must be bfloat16 or float16/,
  );
});

test("autocast: a weight updated between two scopes is read updated (the casts' cache is dropped)", () => {
  const x = tensor(ramp(8, 1), [2, 4]);
  const w = tensor(ramp(8, 0.5), [2, 4]).requiresGrad_();
  const before = autocast('bfloat16', () => linear(x, w))
    .to('float32')
    .toArray();
  noGrad(() => w.add_(1));
  const after = autocast('bfloat16', () => linear(x, w))
    .to('float32')
    .toArray();
  const rowSums = [0, 1].map((r) =>
    ramp(8, 1)
      .slice(4 * r, 4 * r + 4)
      .reduce((s, v) => s + v, 0),
  );
  // x (w + 1)^T - x w^T = the row sums of x in every column (bfloat16: 3 significant digits)
  after.forEach((v, k) => {
    const want = before[k]! + rowSums[Math.floor(k / 2)]!;
    assert.ok(Math.abs(v - want) < 0.02 * (1 + Math.abs(want)), `${k}: ${v} against ${want}`);
  });
});

/**
 * The same network at float32 and at bfloat16, on the same input: the bfloat16 logits are
 * float32, off the float32 ones (bfloat16 rounds) by under 5% of the largest logit.
 */
function assertNearFloat32(
  f32: { forward(y: torch.Tensor, t: torch.Tensor): torch.Tensor },
  bf16: { forward(y: torch.Tensor, t: torch.Tensor): torch.Tensor },
  y: torch.Tensor,
  t: torch.Tensor,
): void {
  const a = noGrad(() => f32.forward(y, t));
  const b = noGrad(() => bf16.forward(y, t));
  assert.equal(b.dtype, 'float32');
  const err = Math.max(...a.sub(b).abs().toArray());
  const scale = Math.max(...a.abs().toArray());
  assert.ok(err > 0 && scale > 0.1, `logits up to ${scale}, bfloat16 off them by ${err}`);
  assert.ok(err < 0.05 * scale, `max error ${err} against max |logit| ${scale}`);
}

test('a bfloat16 DiT gives float32 logits within bfloat16 rounding of the float32 network', () => {
  const shape = { name: 'toy', length: 16, classes: 5 };
  const size = {
    size: 'tiny',
    anchorDim: 8,
    anchors: 'learned' as const,
    structure: false,
    width: 32,
    depth: 2,
    heads: 2,
    mlpHidden: 64,
    conditioning: 'adaln' as const,
    rotary: true,
  };
  const f32 = buildModel(shape, size, new TorchGenerator(3));
  const bf16 = buildModel(shape, { ...size, precision: 'bfloat16' }, new TorchGenerator(3));
  const y = tensor(ramp(2 * 16 * 8, 1), [2, 16, 8]);
  assertNearFloat32(f32, bf16, y, tensor([0.3, 0.7], [2]));
  // atPrecision hands lists back in float32 too
  const both = atPrecision('bfloat16', () => [linear(y, tensor(ramp(24, 0.3), [3, 8]))]);
  assert.equal(both[0]!.dtype, 'float32');
});

test('a bfloat16 U-Net (group norms with float32 weights after bfloat16 convolutions) gives float32 logits near the float32 one', () => {
  const c = {
    base: 8,
    mults: [1, 2],
    blocks: 1,
    heads: 2,
    anchorDim: 4,
    anchors: 'learned' as const,
  };
  const g = { height: 4, width: 4, channels: 1, classes: 3 };
  const f32 = new UNetDenoiser({ ...c, ...g }, new TorchGenerator(5));
  const bf16 = new UNetDenoiser({ ...c, ...g, precision: 'bfloat16' }, new TorchGenerator(5));
  // the output convolution starts at zero: move every weight off it, the same in both
  for (const net of [f32, bf16]) for (const p of net.parameters()) noGrad(() => p.add_(0.05));
  assertNearFloat32(f32, bf16, tensor(ramp(2 * 16 * 4, 1), [2, 16, 4]), tensor([0.2, 0.9], [2]));
});

test('sjd train --precision bfloat16: recorded in config.json, the same losses twice and across a resume, another precision refused on resume', () => {
  const dir = tempDir('sjd-bf16-');
  const losses = (run: string) =>
    readFileSync(join(run, 'metrics.csv'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(',').slice(0, 2).join(',')); // step, loss (not the timing)
  const args = ['train', 'text', '--size', 'tiny', '--steps', '6', '--precision', 'bfloat16'];
  const a = sjd(...args, '--out', join(dir, 'a'));
  assert.equal(a.status, 0, a.stderr);
  const config = JSON.parse(readFileSync(join(dir, 'a', 'config.json'), 'utf8'));
  assert.equal(config.model.precision, 'bfloat16');
  // stopped half-way and resumed (without the flag: the run keeps its own), the same losses: a
  // second run of all six steps, in other processes, repeats the first's losses exactly
  const half = sjd(...args, '--out', join(dir, 'r'), '--stop-after', '3');
  assert.equal(half.status, 0, half.stderr); // stopped with a checkpoint, as asked
  const rest = sjd(
    'train',
    'text',
    '--size',
    'tiny',
    '--steps',
    '6',
    '--resume',
    '--out',
    join(dir, 'r'),
  );
  assert.equal(rest.status, 0, rest.stderr);
  assert.deepEqual(losses(join(dir, 'r')), losses(join(dir, 'a')));
  const f = sjd('train', 'text', '--size', 'tiny', '--steps', '6', '--out', join(dir, 'f'));
  assert.equal(f.status, 0, f.stderr);
  const plain = JSON.parse(readFileSync(join(dir, 'f', 'config.json'), 'utf8'));
  assert.equal('precision' in plain.model, false); // float32: the config as before the flag
  assert.notDeepEqual(losses(join(dir, 'a')), losses(join(dir, 'f')));
  const again = sjd(
    'train',
    'text',
    '--size',
    'tiny',
    '--steps',
    '8',
    '--resume',
    '--precision',
    'float32',
    '--out',
    join(dir, 'a'),
  );
  assert.equal(again.status, 1);
  assert.match(again.stderr, /^sjd: --precision float32: the run in --out trains at bfloat16$/m);
  // auto: the machine's choice, resolved when the run starts and recorded as a precision
  const want = resolvePrecision('auto', 'text', undefined, AUTO_TRAINING_KEEPS_FLOAT32).precision;
  const printed = sjd('train', 'text', '--size', 'tiny', '--precision', 'auto', '--print-config');
  assert.equal(printed.status, 0, printed.stderr);
  assert.equal(JSON.parse(printed.stdout).model.precision ?? 'float32', want);
  // a new run without the flag: the default setting, auto (SJD_PRECISION empty) or the variable's
  // (Sudoku: its curves measured alike, so auto is bfloat16 where the hardware has it)
  const precisionOf = (env: string) => {
    const r = cliIn(dir, { SJD_PRECISION: env }).run(
      ...['train', 'sudoku', '--size', 'tiny', '--print-config'],
    );
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /puzzles/); // the config alone: no puzzles generated for it
    return JSON.parse(r.stdout).model.precision ?? 'float32';
  };
  const sudokuAuto = resolvePrecision('auto', 'sudoku', undefined, AUTO_TRAINING_KEEPS_FLOAT32);
  assert.equal(precisionOf(''), sudokuAuto.precision);
  assert.equal(precisionOf('bfloat16'), 'bfloat16');
  assert.equal(precisionOf('float32'), 'float32');
  const resumedAuto = sjd(
    ...[
      'train',
      'text',
      '--steps',
      '7',
      '--resume',
      '--precision',
      'auto',
      '--out',
      join(dir, 'a'),
    ],
  );
  if (want === 'bfloat16') assert.equal(resumedAuto.status, 0, resumedAuto.stderr);
  else assert.match(resumedAuto.stderr, /^sjd: --precision float32: the run in --out trains at/m);
  const bad = sjd('train', 'text', '--precision', 'fp16', '--out', join(dir, 'c'));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /precision/);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
});

test("sjd export --precision: the exported model samples at it (a bfloat16 run at float32 as the same weights at float32), the run's by default", () => {
  const dir = tempDir('sjd-bf16-export-');
  const run = join(dir, 'run');
  const t = sjd(
    ...'train text --size tiny --steps 4 --precision bfloat16'.split(' '),
    '--out',
    run,
  );
  assert.equal(t.status, 0, t.stderr);
  const modelConfig = (m: string) => JSON.parse(readFileSync(join(m, 'config.json'), 'utf8')).model;
  const exported = (name: string, ...extra: string[]) => {
    const x = sjd('export', '--run', run, '--out', join(dir, name), '--float32', ...extra);
    assert.equal(x.status, 0, x.stderr);
    return join(dir, name);
  };
  const sample = (model: string) => {
    const s = sjd('sample', 'text', '--model', model, '-n', '4', '--nfe', '8', '--seed', '3');
    assert.equal(s.status, 0, s.stderr);
    return s.stdout;
  };
  const kept = exported('kept');
  assert.equal(modelConfig(kept).precision, 'bfloat16');
  const f32 = exported('f32', '--precision', 'float32');
  assert.equal('precision' in modelConfig(f32), false);
  // the oracle: a copy of the run whose config says float32 (the weights are float32 either way)
  const copy = join(dir, 'run-f32');
  cpSync(run, copy, { recursive: true });
  const c = JSON.parse(readFileSync(join(copy, 'config.json'), 'utf8'));
  delete c.model.precision;
  writeFileSync(join(copy, 'config.json'), JSON.stringify(c));
  assert.equal(sample(f32), sample(copy));
  assert.equal(sample(kept), sample(run));
  const back = sjd('export', '--run', copy, '--out', join(dir, 'b'), '--precision', 'bfloat16');
  assert.equal(back.status, 0, back.stderr);
  assert.equal(modelConfig(join(dir, 'b')).precision, 'bfloat16');
  const bad = sjd('export', '--run', run, '--out', join(dir, 'c'), '--precision', 'half');
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
});

test('sjd compare text --precision bfloat16: every run trains at it, and the report and its reproduce line say so', () => {
  const dir = tempDir('sjd-bf16-compare-');
  const doc = join(dir, 'doc.md');
  const r = sjd(
    'compare',
    'text',
    '--out',
    dir,
    '--steps',
    '2',
    '--size',
    'tiny',
    '--models',
    'masked,hybrid',
    '--samplers',
    'ancestral',
    '-n',
    '1',
    '--nfes',
    '4',
    '--precision',
    'bfloat16',
    '--doc',
    doc,
  );
  assert.equal(r.status, 0, r.stderr);
  for (const run of ['masked-seed0', 'hybrid-seed0'])
    assert.equal(
      JSON.parse(readFileSync(join(dir, run, 'config.json'), 'utf8')).model.precision,
      'bfloat16',
    );
  const md = readFileSync(doc, 'utf8');
  assert.match(md, /same DiT and optimiser for every model; bfloat16 compute/);
  assert.match(md, /Reproduce: `npx sjd compare text .*--precision bfloat16 /);
});
