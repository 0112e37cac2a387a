// The precision a model samples at when the machine chooses (src/model/auto-precision.ts):
// bfloat16 where the hardware multiplies it natively, float32 elsewhere and on the TypeScript
// backend; a precision asked for is used (emulated bfloat16 said to be slower); SJD_PRECISION
// sets the default and is checked; the loaders build the network at the setting's precision; the
// commands name it in eval's JSON and, on a terminal, on their first line (`sjd train` a new run's,
// by training's rule).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import {
  AUTO_KEEPS_FLOAT32,
  AUTO_TRAINING_KEEPS_FLOAT32,
  defaultPrecisionSetting,
  describePrecision,
  nativeBfloat16,
  PRECISION_ENV,
  resolvePrecision,
} from '../src/model/auto-precision.js';
import { loadSudokuModel } from '../src/tasks/sudoku/index.js';
import { cpuInfo } from '../src/torch/runtime-info.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const HAS = { yes: true, why: 'the CPU has AVX-512 BF16' };
const LACKS = { yes: false, why: 'the CPU has no AVX-512 BF16 or AMX' };
const JS = { yes: false, js: true, why: 'the TypeScript backend computes in float32' };
const NONE = {}; // no task kept at float32: auto's rule alone

test('auto: bfloat16 where the hardware has it, float32 where not; an asked precision is used as asked', () => {
  assert.deepEqual(resolvePrecision('auto', 'text', HAS, NONE), {
    precision: 'bfloat16',
    setting: 'auto',
    why: 'auto: the CPU has AVX-512 BF16',
  });
  assert.equal(resolvePrecision('auto', 'text', LACKS, NONE).precision, 'float32');
  assert.equal(resolvePrecision('auto', undefined, JS).precision, 'float32');
  assert.deepEqual(resolvePrecision('float32', 'text', HAS, NONE), {
    precision: 'float32',
    setting: 'float32',
    why: 'asked',
  });
  // emulated where the CPU lacks it, and said so; the TypeScript backend computes in float32
  const emulated = resolvePrecision('bfloat16', 'text', LACKS);
  assert.equal(emulated.precision, 'bfloat16');
  assert.match(emulated.why, /^asked; emulated, slower: the CPU has no AVX-512 BF16/);
  assert.equal(resolvePrecision('bfloat16', 'text', JS).precision, 'float32');
  // a task that measured outside float32's spread (or not yet) keeps float32 under auto, with the
  // reason
  const keeps = { text: 'auto keeps float32 for text' };
  assert.deepEqual(resolvePrecision('auto', 'text', HAS, keeps), {
    precision: 'float32',
    setting: 'auto',
    why: 'auto keeps float32 for text',
  });
  assert.equal(resolvePrecision('auto', 'image', HAS, keeps).precision, 'bfloat16');
  assert.equal(resolvePrecision('bfloat16', 'text', HAS, keeps).precision, 'bfloat16');
  for (const [task, why] of Object.entries(AUTO_KEEPS_FLOAT32))
    assert.equal(resolvePrecision('auto', task, HAS).why, why);
});

test("the hardware's bfloat16: the CPU's AVX-512 BF16 or AMX flags; a GPU's by its capability", () => {
  const cpu = (flags: string) => () => cpuInfo(`model name\t: X\nflags\t\t: sse2 ${flags}\n`);
  assert.equal(nativeBfloat16('cpu', cpu('avx512f avx512_bf16')).yes, true);
  assert.equal(nativeBfloat16('cpu', cpu('amx_bf16')).yes, true);
  assert.deepEqual(nativeBfloat16('cpu', cpu('avx2 avx512f')), LACKS);
  // this build's GPUs (none here): the answer names the GPU, not the CPU
  assert.match(nativeBfloat16('cuda', cpu('avx512_bf16')).why, /GPU/);
});

test('SJD_PRECISION sets the default setting; a bad value is refused naming it', () => {
  const before = process.env[PRECISION_ENV];
  try {
    delete process.env[PRECISION_ENV];
    assert.equal(defaultPrecisionSetting(), 'auto');
    process.env[PRECISION_ENV] = 'bfloat16';
    assert.equal(defaultPrecisionSetting(), 'bfloat16');
    process.env[PRECISION_ENV] = 'fp16';
    assert.throws(defaultPrecisionSetting, /^Error: SJD_PRECISION 'fp16' is invalid: use auto,/);
  } finally {
    if (before === undefined) delete process.env[PRECISION_ENV];
    else process.env[PRECISION_ENV] = before;
  }
});

test("a loader builds the network at the setting's precision: asked, or auto's choice", () => {
  assert.equal(loadSudokuModel(undefined, 'bfloat16').model.config.precision, 'bfloat16');
  assert.equal(loadSudokuModel(undefined, 'float32').model.config.precision, undefined);
  const auto = loadSudokuModel(undefined, 'auto').model.config.precision ?? 'float32';
  assert.equal(auto, resolvePrecision('auto', 'sudoku').precision);
});

const script = spawnSync('script', ['--version'], { encoding: 'utf8' });

test("a command's default is auto: eval's JSON names the precision; on a terminal, so does the first line", () => {
  const { [PRECISION_ENV]: _, ...env } = process.env;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });
  const evalArgs = ['eval', 'text', '-n', '2', '--nfe', '4', '--json'];
  const json = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!);
  const auto = run(...evalArgs);
  assert.equal(auto.status, 0, auto.stderr);
  assert.equal(json(auto.stdout).precision, resolvePrecision('auto', 'text').precision);
  const asked = run(...evalArgs, '--precision', 'float32');
  assert.equal(asked.status, 0, asked.stderr);
  assert.equal(json(asked.stdout).precision, 'float32');
  const bad = run('solve', '--precision', 'fp16', '1'.repeat(81));
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^sjd: option '--precision <p>' argument 'fp16' is invalid/);
  if (script.status !== 0) return; // util-linux's script gives the command a terminal
  const tty = spawnSync(
    'script',
    ['-qec', `node ${bin} sample text -n 1 --nfe 4 > /dev/null`, '/dev/null'],
    { encoding: 'utf8', env },
  );
  assert.equal(tty.status, 0, tty.stdout);
  const want = describePrecision(resolvePrecision('auto', 'text'));
  assert.match(want, /^(bfloat16|float32) \(auto: /);
  const first = tty.stdout.split(/\r?\n/)[0]!;
  assert.match(first, /^sjd sample text: libtorch [^,]+, /);
  assert.equal(first.replace(/^sjd sample text: libtorch [^,]+, /, ''), want);
  // sjd train names a new run's precision by training's rule (a resumed run's is its config's)
  const train = spawnSync(
    'script',
    ['-qec', `node ${bin} train sudoku --size tiny --print-config > /dev/null`, '/dev/null'],
    { encoding: 'utf8', env },
  );
  assert.equal(train.status, 0, train.stdout);
  const trained = resolvePrecision('auto', 'sudoku', undefined, AUTO_TRAINING_KEEPS_FLOAT32);
  assert.equal(
    train.stdout.split(/\r?\n/)[0]!.replace(/^sjd train sudoku: libtorch [^,]+, /, ''),
    describePrecision(trained),
  );
});
