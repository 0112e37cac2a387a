// Bad input never crashes the process: shape and dtype mismatches raise JavaScript Errors that
// carry libtorch's message, and every addon function survives arbitrary arguments (fuzz-addon.ts,
// in a child process): it returns or throws an Error with a one-line message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import * as torch from '../src/torch/index.js';
import { native as typedNative } from '../src/torch/native.js';

// These tests feed the addon wrong arguments on purpose, so they call it through an untyped view.
const native = typedNative as unknown as Record<string, (...args: unknown[]) => unknown>;

import { CALLING, type FuzzSummary } from './fuzz-addon.js';

const fuzzScript = new URL('./fuzz-addon.js', import.meta.url).pathname;

test('shape mismatches give libtorch messages', () => {
  const a = torch.ones([2, 3]);
  assert.throws(
    () => a.matmul(torch.ones([2, 3])),
    /mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)/,
  );
  assert.throws(
    () => a.add(torch.ones([4])),
    /size of tensor a \(3\) must match the size of tensor b \(4\)/,
  );
  assert.throws(() => a.view([5]), /shape '\[5\]' is invalid for input of size 6/);
  assert.throws(() => torch.cat([a, torch.ones([2, 4])], 0), /Sizes of tensors must match/);
  assert.throws(
    () => torch.tensor([1, 2, 3], [2, 2]),
    /shape does not match data: 4 elements for 3 values/,
  );
});

test('dtype mismatches and bad indices give libtorch messages', () => {
  assert.throws(
    () => torch.embedding(torch.ones([3, 2]), torch.ones([2])),
    /Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int/,
  );
  assert.throws(
    () => torch.ones([3]).gather(0, torch.tensor([5], [1], 'int64')),
    /index 5 is out of bounds/,
  );
  assert.throws(
    () => torch.embedding(torch.ones([3, 2]), torch.tensor([7], [1], 'int64')),
    /index out of range/,
  );
  assert.throws(
    () => torch.crossEntropy(torch.ones([2, 3]), torch.tensor([0, 3], [2], 'int64')),
    /Target 3 is out of bounds/,
  );
  assert.throws(
    () => torch.ones([2]).mm(torch.ones([2, 2], 'float64').reshape([2, 2])),
    /self must be a matrix/,
  );
  assert.throws(
    () => torch.ones([2, 2]).mm(torch.ones([2, 2], 'float64')),
    /expected .*(Float|Double)/i,
  );
  assert.throws(() => torch.ones([2]).to('float32', 'cuda:7'), /CUDA|cuda/);
});

test('wrong argument kinds give TypeErrors naming the argument', () => {
  assert.throws(() => native.exp(42), /exp: expected a tensor/);
  assert.throws(
    () => native.reshape(torch.ones([2]).handle, 'x'),
    /shape: expected an array of integers/,
  );
  assert.throws(() => native.sum(torch.ones([2]).handle, [0.5]), /expected an array of integers/);
  assert.throws(
    () => native.optimStep(new torch.TorchGenerator(1).handle),
    /optimizer: expected an optimizer/,
  );
  assert.throws(() => torch.zeros([2], 'float8' as never), /unknown dtype 'float8'/);
});

test('every addon function survives arbitrary arguments (fuzz): the process lives, every throw is a one-line Error', () => {
  // in a child process: a crash (a signal, an abort) fails here, naming the call it died in
  const r = spawnSync(process.execPath, [fuzzScript, 'run'], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: 300_000,
  });
  const last = r.stderr
    .split('\n')
    .filter((l) => l.startsWith(CALLING))
    .at(-1);
  assert.equal(r.signal, null, `the fuzz process died of ${r.signal} in ${last}`);
  assert.equal(
    r.status,
    0,
    `the fuzz process exited with ${r.status} in ${last}: ${r.stderr.slice(-2000)}`,
  );
  const s = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as FuzzSummary;
  assert.equal(s.badCount, 0, s.bad.join('\n'));
  assert.equal(s.returned + s.errors, s.calls);
  assert.ok(s.calls > 5000 && s.errors > 0 && s.returned > 0, JSON.stringify(s));
  assert.equal(s.gradEnabled, true);
  assert.equal(s.after, 6, 'the addon still computes after the fuzz');
});
