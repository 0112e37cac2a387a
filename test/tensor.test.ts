// The Tensor API: data in and out, dtypes and PyTorch's scalar promotion, shapes, printing,
// zero-copy views, disposal and scopes, and the methods derived from the addon's table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BINARY, UNARY } from '../src/torch/addon-api.js';
import * as torch from '../src/torch/index.js';

test('typed arrays in and out keep dtype, shape and values', () => {
  const f = torch.tensor(new Float32Array([1.5, 2, 3, 4, 5, 6]), [2, 3]);
  assert.equal(f.dtype, 'float32');
  assert.deepEqual(f.shape, [2, 3]);
  assert.deepEqual(f.toArray(), [1.5, 2, 3, 4, 5, 6]);
  const d = torch.tensor(new Float64Array([Math.PI]), [1]);
  assert.equal(d.dtype, 'float64');
  assert.equal(d.item(), Math.PI);
  const l = torch.tensor(new BigInt64Array([2n ** 40n, -3n]), [2]);
  assert.equal(l.dtype, 'int64');
  assert.deepEqual(l.data(), new BigInt64Array([2n ** 40n, -3n]));
  const b = torch.tensor([1, 0, 1], [3], 'bool');
  assert.equal(b.dtype, 'bool');
  assert.deepEqual(b.toArray(), [1, 0, 1]);
  assert.equal(torch.tensor([1, 2], [2], 'int32').dtype, 'int32');
});

test('scalar promotion follows PyTorch: int64 + 1 stays int64, int64 + 0.5 becomes float32', () => {
  const i = torch.arange(0, 3);
  assert.equal(i.add(1).dtype, 'int64');
  assert.deepEqual(i.add(1).toArray(), [1, 2, 3]);
  assert.equal(i.add(0.5).dtype, 'float32');
  assert.equal(torch.zeros([2], 'float64').mul(3).dtype, 'float64');
  assert.equal(torch.ones([2]).gt(0.5).dtype, 'bool');
  assert.deepEqual(i.div(2).toArray(), [0, 0.5, 1]);
});

test('every elementwise op of the table is a Tensor method, named in camelCase, as written-out ones are', () => {
  const proto = torch.Tensor.prototype as unknown as Record<string, unknown>;
  for (const op of [...UNARY, ...BINARY]) {
    const name = op.replace(/_(.)/g, (_, c: string) => c.toUpperCase());
    const d = Object.getOwnPropertyDescriptor(torch.Tensor.prototype, name);
    assert.equal(typeof proto[name], 'function', name);
    assert.equal((proto[name] as () => void).name, name);
    assert.deepEqual([d?.enumerable, d?.writable, d?.configurable], [false, true, true], name);
  }
  // the ones the class did not write out before it derived them
  const x = torch.tensor([1.5, -1.5, -3, 3], [4]);
  assert.deepEqual(x.trunc().toArray(), [1, -1, -3, 3]);
  assert.deepEqual(x.exp2().toArray(), [2 ** 1.5, 2 ** -1.5, 1 / 8, 8].map(Math.fround));
  assert.deepEqual(x.fmod(2).toArray(), [1.5, -1.5, -1, 1]);
  assert.deepEqual(x.remainder(2).toArray(), [1.5, 0.5, 1, 1]);
  const i = torch.tensor([6, 5], [2], 'int64');
  assert.deepEqual(i.bitwiseAnd(3).toArray(), [2, 1]);
  assert.deepEqual(i.bitwiseOr(torch.tensor([3, 2], [2], 'int64')).toArray(), [7, 7]);
  // Never called: tsc fails on an unused @ts-expect-error, so these lines check the types.
  const typeChecks = () => {
    // @ts-expect-error: a binary op takes an operand
    x.add();
    // @ts-expect-error: matmul takes a tensor, not a number
    x.matmul(2);
    // @ts-expect-error: a handle is not a Tensor
    x.indexSelect(0, i.handle);
    // @ts-expect-error: a reduction's dims are numbers
    x.sum(['0']);
  };
  assert.equal(typeof typeChecks, 'function');
});

test('data() copies while dataView() aliases the tensor memory', () => {
  const t = torch.zeros([3], 'float32', 'cpu'); // only host memory can be aliased
  const copy = t.data();
  const view = t.dataView();
  t.add_(2);
  assert.deepEqual(Array.from(copy as Float32Array), [0, 0, 0]);
  assert.deepEqual(Array.from(view as Float32Array), [2, 2, 2]);
  // A non-contiguous tensor is made contiguous first.
  const tt = torch.arange(0, 6).reshape([2, 3]).transpose(0, 1);
  assert.deepEqual(tt.toArray(), [0, 3, 1, 4, 2, 5]);
});

test('bytes round trip for every dtype, float16 included', () => {
  for (const dt of [
    'float32',
    'float64',
    'int64',
    'int32',
    'bool',
    'uint8',
    'float16',
    'bfloat16',
  ] as const) {
    const t = torch.tensor([1, 0, 2, 3], [2, 2]).to(dt);
    const back = torch.fromBytes(t.bytes().slice(), dt, [2, 2]);
    assert.ok(back.equal(t), dt);
  }
  assert.equal(torch.scalar(0.1).to('float16').bytes().byteLength, 2);
});

test('printing and inspection are readable', () => {
  const s = torch.tensor([1, 2, 3, 4], [2, 2]).toString();
  assert.match(s, /1\s+2\n\s*3\s+4/);
  const dev = torch.defaultDevice().startsWith('cuda') ? 'CUDA' : 'CPU'; // scripts/device.sh: CUDA
  assert.match(s, new RegExp(`${dev}FloatType\\{2,2\\}`));
});

test('shape ops give the expected layouts', () => {
  const t = torch.arange(0, 24).reshape([2, 3, 4]);
  assert.deepEqual(t.permute([2, 0, 1]).shape, [4, 2, 3]);
  assert.deepEqual(t.flatten(1).shape, [2, 12]);
  assert.deepEqual(t.narrow(2, 1, 2).select(0, 1).toArray(), [13, 14, 17, 18, 21, 22]);
  const [a, b] = t.split([1, 2], 1);
  assert.deepEqual(
    [a!.shape, b!.shape],
    [
      [2, 1, 4],
      [2, 2, 4],
    ],
  );
  assert.deepEqual(torch.cat([a!, b!], 1).toArray(), t.toArray());
  assert.deepEqual(torch.stack([a!, a!], 0).shape, [2, 2, 1, 4]);
  assert.deepEqual(t.sum([0, 2]).toArray(), [60, 92, 124]);
  const [v, i] = torch.tensor([3, 1, 2]).sort(0);
  assert.deepEqual(
    [v.toArray(), i.toArray()],
    [
      [1, 2, 3],
      [1, 2, 0],
    ],
  );
  assert.deepEqual(torch.tensor([5, 9, 1]).topk(2)[1].toArray(), [1, 0]);
  assert.deepEqual(torch.tensor([2, 0], [2], 'int64').oneHot(3).toArray(), [0, 0, 1, 1, 0, 0]);
  assert.deepEqual(torch.tensor([1, 2, 3]).cumsum(0).toArray(), [1, 3, 6]);
  assert.deepEqual(torch.tensor([0, 2, 0, 3]).nonzero().toArray(), [1, 3]);
});

test('indexing ops: gather, scatter, index_select, masked_fill, where, advanced index', () => {
  const x = torch.tensor([10, 11, 12, 13, 14, 15], [2, 3]);
  const i = torch.tensor([2, 0], [2, 1], 'int64');
  assert.deepEqual(x.gather(1, i).toArray(), [12, 13]);
  assert.deepEqual(torch.zeros([2, 3]).scatter(1, i, 1).toArray(), [0, 0, 1, 1, 0, 0]);
  assert.deepEqual(
    x.indexSelect(1, torch.tensor([2, 2], [2], 'int64')).toArray(),
    [12, 12, 15, 15],
  );
  const m = x.gt(12.5);
  assert.deepEqual(x.maskedFill(m, -1).toArray(), [10, 11, 12, -1, -1, -1]);
  assert.deepEqual(torch.where(m, x, 0).toArray(), [0, 0, 0, 13, 14, 15]);
  assert.deepEqual(x.index([m]).toArray(), [13, 14, 15]);
});

test('dispose frees at once; a disposed tensor gives a clear error', () => {
  const before = torch.memoryStats().liveTensors;
  const t = torch.ones([1000]);
  assert.equal(torch.memoryStats().liveTensors, before + 1);
  t.dispose();
  assert.equal(torch.memoryStats().liveTensors, before);
  assert.ok(t.isDisposed);
  assert.throws(() => t.exp(), /exp: tensor was disposed/);
});

test('tidy disposes intermediates, keeps what it returns (nested), and cleans up on throw', () => {
  const base = torch.memoryStats().liveTensors;
  const kept: torch.Tensor[] = [];
  const out = torch.tidy(() => {
    const a = torch.ones([4]);
    const inner = torch.tidy(() => {
      const b = a.mul(2);
      kept.push(torch.keep(b.add(1)));
      return { b, list: [b.sum()] };
    });
    assert.ok(!inner.b.isDisposed);
    return inner.list[0]!;
  });
  assert.equal(out.item(), 8);
  assert.equal(kept[0]!.isDisposed, false);
  assert.equal(torch.memoryStats().liveTensors, base + 2);
  assert.throws(() =>
    torch.tidy(() => {
      torch.ones([3]);
      throw new Error('boom');
    }),
  );
  assert.equal(torch.memoryStats().liveTensors, base + 2);
  assert.equal(torch.scopeDepth(), 0);
});

test('noGrad turns recording off and restores it, even on throw', () => {
  const w = torch.ones([2]).requiresGrad_(true);
  const y = torch.noGrad(() => w.mul(2));
  assert.equal(y.requiresGrad, false);
  assert.equal(w.mul(2).requiresGrad, true);
  assert.throws(() =>
    torch.noGrad(() => {
      throw new Error('x');
    }),
  );
  assert.equal(torch.isGradEnabled(), true);
});

test('thread count is a setting', () => {
  const n = torch.getNumThreads();
  torch.setNumThreads(1);
  assert.equal(torch.getNumThreads(), 1);
  // OpenBLAS's own worker pool follows (Debian's libtorch multiplies through it): a 1-thread
  // job no longer splits its products, nor spins a second core in sched_yield. Under another
  // BLAS (a PyTorch wheel's MKL) there is no such pool: 0.
  const openblas = readFileSync('/proc/self/maps', 'utf8').includes('libopenblas');
  assert.equal(torch.getBlasThreads(), openblas ? 1 : 0);
  torch.setNumThreads(2);
  assert.equal(torch.getBlasThreads(), openblas ? 2 : 0);
  torch.setNumThreads(n);
  assert.throws(() => torch.setNumThreads(0), /threads: must be between 1 and 1024/);
});

test('withParallelThreads: its count inside (OpenMP and OpenBLAS), the one before after, also when fn throws', () => {
  const n = torch.getNumThreads();
  torch.setNumThreads(2);
  const omp = torch.torchVersion().config.includes('OpenMP');
  const openblas = readFileSync('/proc/self/maps', 'utf8').includes('libopenblas');
  const inside = torch.withParallelThreads(1, () => [
    torch.getNumThreads(),
    torch.getBlasThreads(),
  ]);
  assert.deepEqual(inside, omp ? [1, openblas ? 1 : 0] : [2, openblas ? 2 : 0]);
  assert.deepEqual([torch.getNumThreads(), torch.getBlasThreads()], [2, openblas ? 2 : 0]);
  assert.throws(
    () =>
      torch.withParallelThreads(1, () => {
        throw new Error('inside');
      }),
    /inside/,
  );
  assert.equal(torch.getNumThreads(), 2);
  assert.throws(() => torch.withParallelThreads(0, () => 0), /threads: must be between 1 and 1024/);
  torch.setNumThreads(n);
});

test('the default device: new tensors, typed arrays, bytes and draws land there; a device the build lacks is refused', () => {
  const dev = process.env.SJD_DEVICE ?? 'cpu'; // scripts/device.sh runs this suite on CUDA
  assert.equal(torch.defaultDevice(), dev);
  torch.setDefaultDevice(dev);
  const g = new torch.TorchGenerator(1);
  for (const t of [
    torch.tensor([1, 2], [2]),
    torch.zeros([2]),
    torch.fromBytes(new Uint8Array(8), 'float32', [2]),
    g.rand([2]),
    g.randn([2], 'float64'),
    g.randint(0, 3, [2]),
  ])
    assert.ok(t.device === dev || t.device === `${dev}:0`, `${t.device} on ${dev}`);
  const v = torch.torchVersion();
  if (!v.cuda)
    assert.throws(
      () => torch.setDefaultDevice('cuda'),
      new RegExp(`device 'cuda': this libtorch \\(${v.torch}\\) has no CUDA`),
    );
  assert.throws(() => torch.setDefaultDevice('tpu'), /device 'tpu': use cpu, cuda or cuda:N/);
  assert.equal(torch.defaultDevice(), dev, 'a refused device leaves the default as it was');
  // generator state round trip goes through the CPU whatever device the state tensor is on
  const s = g.getState();
  const a = g.rand([3]).toArray();
  g.setState(s.to('uint8', 'cpu'));
  assert.deepEqual(g.rand([3]).toArray(), a);
});
