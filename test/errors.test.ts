// Bad input never crashes the process: shape and dtype mismatches raise JavaScript Errors that
// carry libtorch's message, and every addon function survives arbitrary arguments.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as torch from '../src/torch/index.js';
import { native } from '../src/torch/native.js';

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
    () => native.optimStep(new torch.Generator(1).handle),
    /optimizer: expected an optimizer/,
  );
  assert.throws(() => torch.zeros([2], 'float8' as never), /unknown dtype 'float8'/);
});

test('every addon function survives arbitrary arguments (fuzz)', () => {
  const gen = new torch.Generator(0);
  const pool = () => [
    undefined,
    null,
    0,
    -1,
    3,
    2.5,
    Number.NaN,
    1e12,
    -1e12,
    'float32',
    'x',
    {},
    [],
    [2, 3],
    [-5],
    [1e12, 1e12],
    new Float32Array(3),
    torch.ones([2, 3]).handle,
    torch.tensor([0, 1], [2], 'int64').handle,
    torch.tensor([1, 0], [2], 'bool').handle,
    torch.zeros([0]).handle,
    gen.handle,
  ];
  const skip = new Set(['setNumThreads', 'setGradEnabled']);
  let calls = 0;
  let errors = 0;
  const rng = torch.tidy(() => gen.randint(0, 1 << 30, [4000]).toArray());
  let r = 0;
  const next = (n: number) => rng[r++ % rng.length]! % n;
  for (const name of Object.keys(native)) {
    if (skip.has(name)) continue;
    for (let trial = 0; trial < 40; trial++) {
      const p = pool();
      const args = Array.from({ length: next(6) }, () => p[next(p.length)]);
      calls++;
      try {
        torch.tidy(() => native[name]!(...args));
      } catch (e) {
        assert.ok(e instanceof Error, `${name} threw a non-Error`);
        errors++;
      }
    }
  }
  assert.ok(calls > 5000 && errors > 0, `${calls} calls, ${errors} errors`);
  assert.equal(torch.isGradEnabled(), true);
});
