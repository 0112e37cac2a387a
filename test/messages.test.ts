// The messages of long or mistaken runs: `train sudoku` without --data says it is generating
// its puzzles and how far it is; bounds are reported as the real limits (1,024 NFE, 4 samples),
// never zod's safe-integer limit; "an image model"; a huge safetensors header length is an
// integer; torch.tensor refuses ragged arrays and strings; sampling.sample({}) names what is
// missing; an empty SJD_DEVICE names the variable; --master [::1]:PORT is loopback.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as sampling from '../src/sampling/index.js';
import { sampleRequest, solveRequest } from '../src/serve/schemas.js';
import { formatSudokuCsv } from '../src/tasks/sudoku/puzzle/csv.js';
import { generatePuzzles } from '../src/tasks/sudoku/puzzle/generator.js';
import * as torch from '../src/torch/index.js';
import { decodeSafetensors } from '../src/torch/safetensors.js';
import { parseConfig } from '../src/train/index.js';
import { freePort } from '../src/util/index.js';
import { outputOf } from './child-output.js';
import { EASY } from './sudoku-puzzles.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const env = { ...process.env, SJD_THREADS: '1' };
const sjd = (args: string[], more: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...env, ...more },
    timeout: 120_000,
  });
const dir = tempDir('sjd-messages-');

test('train sudoku without --data says it is generating its puzzles, with progress', {
  timeout: 120_000,
}, async () => {
  const child = spawn(
    process.execPath,
    [bin, 'train', 'sudoku', '--size', 'tiny', '--steps', '1', '--out', join(dir, 'gen')],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const o = outputOf(child);
  const t0 = Date.now();
  while (!/generated [\d,]+ of 20,000 training puzzles in \d+ s/.test(o.stderr)) {
    assert.ok(Date.now() - t0 < 60_000, `no progress line: ${o.stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.match(
    o.stderr,
    /^sjd train sudoku: generating 20,000 training puzzles here \(seed 1; none given\)$/m,
  );
});

test('bounds are reported as the real limits, never the safe-integer one', () => {
  const first = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
    r.error!.issues[0]!.message;
  const solve = solveRequest(['adaptive'], 'body');
  for (const nfe of [1e20, 2000]) {
    const m = first(solve.safeParse({ puzzle: EASY, nfe }));
    assert.match(m, /<=1024$/);
  }
  const sample = sampleRequest(['sjd'], 'body');
  assert.match(first(sample.safeParse({ n: 1e20 })), /<=4$/);
  assert.match(first(sample.safeParse({ n: -1e20 })), />=1$/);
  const config = JSON.parse(
    readFileSync(new URL('../../models/sudoku/config.json', import.meta.url), 'utf8'),
  );
  assert.throws(
    () => parseConfig({ ...config, batch: 1e20 }, 'config.json'),
    (e: Error) => !e.message.includes('9007199254740991') && /batch/.test(e.message),
  );
});

test('a model of another task: "an image model"', () => {
  const image = new URL('../../models/image', import.meta.url).pathname;
  const r = sjd(['sample', 'text', '--model', image]);
  assert.match(r.stderr.trim(), /^sjd: .*image holds an image model, not text$/);
});

test('a huge safetensors header length is printed as the integer it is', () => {
  const buf = Buffer.alloc(16);
  buf.writeBigUInt64LE(2n ** 64n - 1n);
  assert.throws(
    () => decodeSafetensors(buf, 'w.safetensors'),
    /^Error: w\.safetensors: header length 18446744073709551615 exceeds the file \(8 bytes after it\)$/,
  );
});

test('torch.tensor refuses ragged arrays and strings; takes nested regular ones', () => {
  assert.throws(
    () => torch.tensor([[1, 2], [3]]),
    /^Error: tensor: ragged nested array: \[1\] has 1 element, where the first at its depth has 2$/,
  );
  assert.throws(
    () => torch.tensor(['a'] as unknown as number[]),
    /^Error: tensor: \[0\] is the string "a"; expected a number$/,
  );
  assert.throws(() => torch.tensor([1, [2]] as unknown as number[]), /ragged nested array: \[1\]/);
  const t = torch.tensor([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  assert.deepEqual(
    [t.shape, t.toArray()],
    [
      [2, 3],
      [1, 2, 3, 4, 5, 6],
    ],
  );
  assert.deepEqual(torch.tensor([1, 2, 3]).shape, [3]);
});

test('torch.tensor refuses a value its integer dtype cannot hold (int64 2**70 gave 0, uint8 300 gave 44)', () => {
  for (const [v, dtype, holds] of [
    [2 ** 70, 'int64', '-2\\^63 to 2\\^63 - 1'],
    [2 ** 63, 'int64', '-2\\^63 to 2\\^63 - 1'],
    [Number.NaN, 'int64', '-2\\^63'],
    [300, 'uint8', '0 to 255'],
    [-1, 'uint8', '0 to 255'],
    [2 ** 31, 'int32', '-2\\^31 to 2\\^31 - 1'],
    [Number.POSITIVE_INFINITY, 'int32', '-2\\^31'],
  ] as const)
    assert.throws(
      () => torch.tensor([0, v], [2], dtype),
      new RegExp(
        `^Error: tensor: ${String(v).replace(/[.+]/g, '\\$&')} \\(element 1\\) does not fit ${dtype}, which holds ${holds}`,
      ),
    );
  // the edges fit; a fraction truncates toward zero, as PyTorch's does
  assert.deepEqual(torch.tensor([0, 255, 7.9], [3], 'uint8').toArray(), [0, 255, 7]);
  assert.deepEqual(torch.tensor([-(2 ** 31), 2 ** 31 - 1], [2], 'int32').toArray(), [
    -(2 ** 31),
    2 ** 31 - 1,
  ]);
  assert.deepEqual(torch.tensor([-(2 ** 53), -1.5], [2], 'int64').toArray(), [-(2 ** 53), -1]);
});

test('sampling.sample({}) names what is missing', () => {
  assert.throws(
    () => sampling.sample({} as sampling.SampleOptions),
    /^Error: sample: process \(an SJDProcess\) is missing; classifier .* is missing; anchors .* is missing; batch .* is missing; length .* is missing; nfe .* is missing; seed .* is missing$/,
  );
});

test("SJD_DEVICE='' names the variable", () => {
  const r = sjd(['info'], { SJD_DEVICE: '' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr.trim(), /^sjd: SJD_DEVICE: device '': use cpu, cuda or cuda:N$/);
});

test('--master [::1]:PORT is on loopback', { timeout: 180_000 }, async () => {
  const data = join(dir, 'p.csv');
  writeFileSync(data, formatSudokuCsv(generatePuzzles(8, { seed: 3 })));
  const port = await freePort();
  const r = sjd([
    ...['train', 'sudoku', '--size', 'tiny', '--steps', '1', '--out', join(dir, 'v6')],
    ...['--data', data, '--eval-data', data, '--eval-size', '2', '--eval-nfe', '2'],
    ...['--rank', '0', '--world-size', '1', '--master', `[::1]:${port}`],
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /not on loopback/);
  const bad = sjd([
    'train',
    'sudoku',
    '--rank',
    '0',
    '--world-size',
    '1',
    '--master',
    '::1:80',
    '--out',
    join(dir, 'x'),
  ]);
  assert.match(
    bad.stderr.trim(),
    /^sjd: --master must be ADDRESS:PORT \(an IPv6 address in brackets\), got '::1:80'$/,
  );
});
