// The TypeScript backend's reuse of buffers (src/torch/js/buffers.ts): a disposed tensor's
// buffer comes back zeroed for the next tensor of its size, never while a view on it lives, and
// the matrix kernel's cache of a weight's transposed copy is not read for a reused buffer that
// now holds another weight.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsBackend as js } from '../src/torch/js/backend.js';
import type { JsTensor } from '../src/torch/js/tensor-data.js';

const N = 4096; // at least the smallest buffer kept for reuse
const data = (h: unknown) => (h as JsTensor).data;
const read = (h: unknown) => Array.from(js.toTyped(h as never) as Float32Array);

test('a disposed buffer is reused zeroed, and not while a view on it lives', () => {
  const a = js.mul(js.ones([N], 'float32'), 5); // made by an op: the backend's own buffer
  const v = js.reshape(a, [64, 64]); // a view on it, handed out
  js.dispose(a);
  const b = js.zeros([N], 'float32');
  assert.notEqual(data(b), data(a), 'reused while a view lived');
  assert.ok(read(v).every((x) => x === 5));
  js.dispose(v);
  const c = js.zeros([N], 'float32');
  assert.equal(data(c), data(a), 'the freed buffer is reused');
  assert.ok(
    read(c).every((x) => x === 0),
    'and zeroed',
  );
  js.dispose(b);
  js.dispose(c);
});

test("a reused buffer holding another weight is not read from the kernel's transposed copy", () => {
  const f32 = (n: number, at: number) =>
    Float32Array.from({ length: n }, (_, i) => ((i * 7 + at) % 13) / 13);
  const x = js.fromTyped(f32(3 * 64, 1), [3, 64]);
  const w1 = js.mul(js.fromTyped(f32(64 * 64, 2), [64, 64]), 1);
  const first = read(js.linear(x, w1)); // caches w1 transposed
  const buffer = data(w1);
  js.dispose(w1);
  const src = js.fromTyped(f32(64 * 64, 5), [64, 64]);
  const w2 = js.mul(src, 1);
  assert.equal(data(w2), buffer, 'the test reuses the buffer');
  assert.deepEqual(read(js.linear(x, w2)), read(js.linear(x, src)));
  assert.notDeepEqual(read(js.linear(x, w2)), first);
});
