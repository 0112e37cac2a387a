// libtorch's op profiler (native/profiler.cc, src/torch/profile.ts): the aten ops a function ran,
// its backward pass's included, counted exactly, self time within total time; the profiler
// stops however the function ends, and a second start or a stray stop is refused in one line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backend, profileOps, TorchGenerator, tensor } from '../src/torch/index.js';
import { native } from '../src/torch/native.js';

test('profileOps: each aten op of the forward and backward pass by name, with its calls and times', {
  skip: backend().name === 'js' ? 'the TypeScript backend has no op profiler' : false,
}, () => {
  const gen = new TorchGenerator(0);
  const w = gen.randn([16, 16]).requiresGrad_();
  const x = gen.randn([4, 16]);
  const { result, ops } = profileOps(() => {
    const y = x.matmul(w).matmul(w); // two products forward
    y.sum().backward(); // and their gradients
    return y.shape;
  });
  assert.deepEqual(result, [4, 16]);
  const op = (name: string) => ops.find((o) => o.name === name);
  // two forward; backward, w's gradient at each product and the first product's output's (x needs
  // none)
  assert.equal(op('aten::mm')!.calls, 2 + 3);
  assert.equal(op('MmBackward0')!.calls, 2);
  for (const o of ops) {
    assert.ok(
      o.selfUs >= 0 && o.selfUs <= o.totalUs + 1e-6,
      `${o.name}: ${o.selfUs} > ${o.totalUs}`,
    );
    assert.ok(Number.isInteger(o.calls) && o.calls > 0, o.name);
  }
  // most self time first
  for (let i = 1; i < ops.length; i++) assert.ok(ops[i - 1]!.selfUs >= ops[i]!.selfUs);
  // a backward node's total holds the products it ran
  assert.ok(op('MmBackward0')!.totalUs >= op('MmBackward0')!.selfUs);
  // stopped however fn ends: a throw leaves it off, so the next profile starts afresh
  assert.throws(
    () =>
      profileOps(() => {
        tensor([1, 2]).add(tensor([3, 4]));
        throw new Error('inside');
      }),
    /^Error: inside$/,
  );
  assert.throws(() => native.profileStop(), /profileStop: the profiler is not on/);
  native.profileStart();
  assert.throws(() => native.profileStart(), /profileStart: the profiler is on already/);
  assert.deepEqual(native.profileStop(), []); // nothing ran between
});
