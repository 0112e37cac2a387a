// The tensor ops of the image task (the U-Net of app:cifar10-imagenet and the Fréchet
// distance): each against a direct computation in JavaScript on small inputs. Gradients are in
// gradcheck.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as torch from '../src/torch/index.js';

const close = (a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string) => {
  assert.equal(a.length, b.length, `${what}: lengths`);
  for (let i = 0; i < a.length; i++)
    assert.ok(Math.abs(a[i]! - b[i]!) <= tol, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

test('conv2d is the direct sum over channels and the kernel window (stride, padding, groups)', () => {
  const gen = new torch.TorchGenerator(3);
  const [N, C, H, Wd, O, k, groups, stride, pad] = [2, 4, 5, 6, 6, 3, 2, 2, 1];
  const x = gen.randn([N, C, H, Wd], 'float64');
  const w = gen.randn([O, C / groups, k, k], 'float64');
  const b = gen.randn([O], 'float64');
  const y = torch.conv2d(x, w, b, { stride, padding: pad, groups }); // [N, O, H', W']
  const [Ho, Wo] = [
    Math.floor((H + 2 * pad - k) / stride) + 1,
    Math.floor((Wd + 2 * pad - k) / stride) + 1,
  ];
  assert.deepEqual(y.shape, [N, O, Ho, Wo]);
  const X = x.data() as Float64Array;
  const Wt = w.data() as Float64Array;
  const B = b.data() as Float64Array;
  const want = new Float64Array(N * O * Ho * Wo);
  const cpg = C / groups;
  const opg = O / groups;
  for (let n = 0; n < N; n++)
    for (let o = 0; o < O; o++)
      for (let i = 0; i < Ho; i++)
        for (let j = 0; j < Wo; j++) {
          let s = B[o]!;
          const g = Math.floor(o / opg);
          for (let c = 0; c < cpg; c++)
            for (let u = 0; u < k; u++)
              for (let v = 0; v < k; v++) {
                const r = i * stride - pad + u;
                const q = j * stride - pad + v;
                if (r < 0 || q < 0 || r >= H || q >= Wd) continue;
                s +=
                  X[((n * C + g * cpg + c) * H + r) * Wd + q]! *
                  Wt[((o * cpg + c) * k + u) * k + v]!;
              }
          want[((n * O + o) * Ho + i) * Wo + j] = s;
        }
  close(y.data() as Float64Array, want, 1e-12, 'conv2d');
  // the input stored channels-last ([N, H, W, C]): the same sums, the output stored so too
  const cl = torch.conv2d(x.contiguous('channels_last'), w, b, { stride, padding: pad, groups });
  close(cl.data() as Float64Array, want, 1e-12, 'conv2d channels-last');
  assert.deepEqual(cl.permute([0, 2, 3, 1]).view([-1, O]).shape, [N * Ho * Wo, O]);
  assert.throws(() => y.permute([0, 2, 3, 1]).view([-1, O]), /view size is not compatible/);
});

test('nn.Conv2d with channelsLast: the same outputs and gradients as the default layout; a bad layout request is refused', () => {
  const gen = new torch.TorchGenerator(4);
  const plain = new torch.nn.Conv2d(3, 5, 3, { gen: new torch.TorchGenerator(1) });
  const last = new torch.nn.Conv2d(3, 5, 3, {
    gen: new torch.TorchGenerator(1),
    channelsLast: true,
  });
  const x = gen.randn([2, 3, 7, 6]);
  const run = (m: torch.nn.Conv2d) => {
    const y = m.forward(x);
    y.mul(y).sum().backward();
    return { y: y.data() as Float32Array, g: m.weight.grad!.data() as Float32Array };
  };
  const [a, b] = [run(plain), run(last)];
  close(b.y, a.y, 1e-5, 'output');
  close(b.g, a.g, 1e-3, 'weight gradient');
  assert.throws(
    () => x.contiguous('nchw' as 'channels_last'),
    /^RangeError: contiguous: the memory format must be 'channels_last', got 'nchw'$/,
  );
  assert.throws(
    () => gen.randn([2, 3]).contiguous('channels_last'),
    /channels_last needs a 4-D tensor, got 2-D/,
  );
});

test('groupNorm gives zero mean and unit variance within each group, then the affine map', () => {
  const gen = new torch.TorchGenerator(5);
  const x = gen.randn([2, 6, 3, 3], 'float64').mul(3).add(1);
  const y = torch.groupNorm(x, 3, null, null, 0); // [2, 6, 3, 3]
  const g = y.reshape([2, 3, 18]);
  close(g.mean([-1]).data() as Float64Array, new Float64Array(6), 1e-12, 'group mean');
  close(
    g.var([-1], false).data() as Float64Array,
    new Float64Array(6).fill(1),
    1e-10,
    'group variance',
  );
  const w = torch.tensor([1, 2, 3, 4, 5, 6], [6], 'float64');
  const b = torch.tensor([0, 1, 0, 1, 0, 1], [6], 'float64');
  const z = torch.groupNorm(x, 3, w, b, 0);
  close(
    z.data() as Float64Array,
    y
      .mul(w.reshape([1, 6, 1, 1]))
      .add(b.reshape([1, 6, 1, 1]))
      .data() as Float64Array,
    1e-12,
    'affine',
  );
});

test('upsampleNearest2d repeats each pixel; avgPool2d averages each window', () => {
  const x = torch.tensor([1, 2, 3, 4, 5, 6], [1, 1, 2, 3], 'float64');
  const up = torch.upsampleNearest2d(x, 4, 6);
  assert.deepEqual(
    Array.from(up.data() as Float64Array),
    [1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 4, 4, 5, 5, 6, 6],
  );
  assert.deepEqual(Array.from(torch.avgPool2d(up, 2).data() as Float64Array), [1, 2, 3, 4, 5, 6]);
  const y = torch.tensor([1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 2, 4], 'float64');
  assert.deepEqual(Array.from(torch.avgPool2d(y, 2).data() as Float64Array), [3.5, 5.5]);
});

test('eigh: the eigenvalues of a known matrix, ascending, and V diag(l) V^T = A with V orthogonal', () => {
  // [[2, 1], [1, 2]] has eigenvalues 1 and 3.
  const [l2] = torch.eigh(torch.tensor([2, 1, 1, 2], [2, 2], 'float64'));
  close(l2.data() as Float64Array, [1, 3], 1e-12, 'eigenvalues');
  const gen = new torch.TorchGenerator(9);
  const m = gen.randn([5, 5], 'float64');
  const a = m.matmul(m.transpose(0, 1)); // symmetric positive semi-definite
  const [l, v] = torch.eigh(a);
  const ls = Array.from(l.data() as Float64Array);
  assert.deepEqual(
    ls,
    [...ls].sort((p, q) => p - q),
  );
  close(
    v.mul(l.unsqueeze(0)).matmul(v.transpose(0, 1)).data() as Float64Array,
    a.data() as Float64Array,
    1e-10,
    'reconstruction',
  );
  close(
    v.transpose(0, 1).matmul(v).data() as Float64Array,
    torch.eye(5, 'float64').data() as Float64Array,
    1e-12,
    'orthogonality',
  );
});
