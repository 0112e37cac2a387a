// Float64 finite-difference gradient check for every differentiable op of the addon:
// autograd's gradient of sum(f(x) * w) (w fixed random weights) against central differences.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Tensor } from '../src/torch/index.js';
import * as torch from '../src/torch/index.js';

const EPS = 1e-6;
const ATOL = 1e-7;
const RTOL = 1e-6;

type Spec = { shape: number[]; init: (u: number) => number };
const any: (shape: number[]) => Spec = (shape) => ({ shape, init: (u) => 2 * u - 1 });
const pos: (shape: number[]) => Spec = (shape) => ({ shape, init: (u) => 0.5 + u });

function gradcheck(name: string, specs: Spec[], fn: (...xs: Tensor[]) => Tensor, seed = 7): void {
  torch.tidy(() => {
    const gen = new torch.TorchGenerator(seed);
    // Values spread over a grid plus jitter: distinct (no ties for max/sort/relu kinks at 0).
    const values = specs.map((s) => {
      const u = gen.rand([s.shape.reduce((a, b) => a * b, 1)], 'float64').data() as Float64Array;
      return Float64Array.from(u, (x, i) => s.init((i * 0.618034 + x * 0.1) % 1));
    });
    const build = (vals: Float64Array[]) =>
      vals.map((v, i) => torch.tensor(v, specs[i]!.shape, 'float64'));
    const out0 = fn(...build(values));
    const w = gen.randn(out0.shape, 'float64');
    const F = (vals: Float64Array[]) =>
      torch.tidy(() =>
        fn(...build(vals))
          .mul(w)
          .sum()
          .item(),
      );
    const leaves = build(values).map((t) => t.requiresGrad_(true));
    fn(...leaves)
      .mul(w)
      .sum()
      .backward();
    leaves.forEach((leaf, i) => {
      const analytic = leaf.grad!.data() as Float64Array;
      for (let k = 0; k < values[i]!.length; k++) {
        const plus = values.map((v) => v.slice());
        const minus = values.map((v) => v.slice());
        plus[i]![k]! += EPS;
        minus[i]![k]! -= EPS;
        const numeric = (F(plus) - F(minus)) / (2 * EPS);
        const a = analytic[k]!;
        assert.ok(
          Math.abs(a - numeric) <= ATOL + RTOL * Math.abs(numeric),
          `${name}: d/dx${i}[${k}] autograd ${a} vs finite difference ${numeric}`,
        );
      }
    });
  });
}

const idx = (v: number[], shape?: number[]) => torch.tensor(v, shape ?? [v.length], 'int64');
const mask = (v: number[], shape: number[]) => torch.tensor(v, shape, 'bool');

const unary: [string, Spec, (x: Tensor) => Tensor][] = [
  ['neg', any([3, 4]), (x) => x.neg()],
  ['abs', any([3, 4]), (x) => x.abs()],
  ['exp', any([3, 4]), (x) => x.exp()],
  ['log', pos([3, 4]), (x) => x.log()],
  ['log1p', pos([3, 4]), (x) => x.log1p()],
  ['expm1', any([3, 4]), (x) => x.expm1()],
  ['log2', pos([3, 4]), (x) => x.log2()],
  ['sqrt', pos([3, 4]), (x) => x.sqrt()],
  ['rsqrt', pos([3, 4]), (x) => x.rsqrt()],
  ['square', any([3, 4]), (x) => x.square()],
  ['reciprocal', pos([3, 4]), (x) => x.reciprocal()],
  ['tanh', any([3, 4]), (x) => x.tanh()],
  ['sigmoid', any([3, 4]), (x) => x.sigmoid()],
  ['erf', any([3, 4]), (x) => x.erf()],
  ['erfinv', { shape: [3, 4], init: (u) => 1.8 * u - 0.9 }, (x) => x.erfinv()],
  ['relu', any([3, 4]), (x) => x.relu()],
  ['silu', any([3, 4]), (x) => x.silu()],
  ['sin', any([3, 4]), (x) => x.sin()],
  ['cos', any([3, 4]), (x) => x.cos()],
  ['lgamma', pos([3, 4]), (x) => x.lgamma()],
  ['gelu', any([3, 4]), (x) => x.gelu()],
  ['gelu tanh', any([3, 4]), (x) => x.gelu('tanh')],
  ['clamp', any([3, 4]), (x) => x.clamp(-0.55, 0.45)],
  ['softmax', any([3, 4]), (x) => x.softmax(-1)],
  ['logSoftmax', any([3, 4]), (x) => x.logSoftmax(0)],
  ['cumsum', any([3, 4]), (x) => x.cumsum(1)],
  ['sum dims', any([3, 4]), (x) => x.sum([1], true)],
  ['sum all', any([3, 4]), (x) => x.sum()],
  ['mean', any([3, 4]), (x) => x.mean(0)],
  ['amax', any([3, 4]), (x) => x.amax(1)],
  ['amin', any([3, 4]), (x) => x.amin([0, 1])],
  ['max(dim) values', any([3, 4]), (x) => x.max(1)[0]],
  ['min(dim) values', any([3, 4]), (x) => x.min(0)[0]],
  ['logsumexp', any([3, 4]), (x) => x.logsumexp(1)],
  ['var', any([3, 4]), (x) => x.var(1)],
  ['std', any([3, 4]), (x) => x.std(undefined, false)],
  ['norm', any([3, 4]), (x) => x.norm(2, [1])],
  ['sort values', any([3, 4]), (x) => x.sort(1, true)[0]],
  ['topk values', any([3, 4]), (x) => x.topk(2, 1)[0]],
  ['reshape', any([3, 4]), (x) => x.reshape([2, 6])],
  ['view', any([3, 4]), (x) => x.view([4, 3])],
  ['permute', any([2, 3, 2]), (x) => x.permute([2, 0, 1])],
  ['transpose', any([3, 4]), (x) => x.transpose(0, 1)],
  ['unsqueeze+expand', any([3, 4]), (x) => x.unsqueeze(0).expand([2, 3, 4])],
  ['squeeze', any([3, 1, 4]), (x) => x.squeeze(1)],
  ['flatten', any([2, 3, 2]), (x) => x.flatten(1)],
  ['repeat', any([2, 3]), (x) => x.repeat([2, 2])],
  ['flip', any([3, 4]), (x) => x.flip([0, 1])],
  ['narrow', any([3, 4]), (x) => x.narrow(1, 1, 2)],
  ['select', any([3, 4]), (x) => x.select(0, 2)],
  ['split', any([3, 4]), (x) => x.split([1, 3], 1)[1]!],
  ['chunk', any([4, 3]), (x) => x.chunk(2, 0)[0]!],
  ['contiguous', any([3, 4]), (x) => x.transpose(0, 1).contiguous()],
  ['indexSelect', any([4, 3]), (x) => x.indexSelect(0, idx([3, 0, 3]))],
  ['gather', any([3, 4]), (x) => x.gather(1, idx([0, 3, 1, 1, 2, 0], [3, 2]))],
  ['index', any([3, 4]), (x) => x.index([idx([2, 0]), idx([1, 3])])],
  ['maskedFill', any([2, 3]), (x) => x.maskedFill(mask([1, 0, 0, 0, 1, 0], [2, 3]), 0.25)],
  ['embedding', any([5, 3]), (w) => torch.embedding(w, idx([4, 1, 4, 0], [2, 2]))],
  ['layerNorm (x)', any([3, 4]), (x) => torch.layerNorm(x, [4])],
  ['crossEntropy mean', any([4, 5]), (x) => torch.crossEntropy(x, idx([0, 4, 2, 2]))],
  [
    'crossEntropy weight+ignore+none',
    any([4, 5]),
    (x) =>
      torch.crossEntropy(x, idx([0, -1, 2, 3]), {
        weight: torch.tensor([1, 2, 0.5, 1, 3], [5], 'float64'),
        ignoreIndex: -1,
        reduction: 'none',
      }),
  ],
  [
    'crossEntropy 3-D + smoothing',
    any([2, 5, 3]),
    (x) => torch.crossEntropy(x, idx([0, 1, 4, 3, 2, 2], [2, 3]), { labelSmoothing: 0.1 }),
  ],
  [
    'dropout (fixed mask)',
    any([4, 5]),
    (x) => torch.dropout(x, 0.3, true, new torch.TorchGenerator(3)),
  ],
];

for (const [name, spec, fn] of unary) test(`gradcheck ${name}`, () => gradcheck(name, [spec], fn));

const binary: [string, Spec, Spec, (a: Tensor, b: Tensor) => Tensor][] = [
  ['add (broadcast)', any([3, 4]), any([4]), (a, b) => a.add(b)],
  ['sub', any([3, 4]), any([3, 1]), (a, b) => a.sub(b)],
  ['mul', any([3, 4]), any([3, 4]), (a, b) => a.mul(b)],
  ['div', any([3, 4]), pos([3, 4]), (a, b) => a.div(b)],
  ['pow', pos([3, 4]), any([3, 4]), (a, b) => a.pow(b)],
  ['maximum', any([3, 4]), any([3, 4]), (a, b) => a.maximum(b)],
  ['minimum', any([3, 4]), any([3, 4]), (a, b) => a.minimum(b)],
  ['atan2', any([3, 4]), pos([3, 4]), (a, b) => a.atan2(b)],
  ['xlogy', any([3, 4]), pos([3, 4]), (a, b) => a.xlogy(b)],
  [
    'where',
    any([2, 3]),
    any([2, 3]),
    (a, b) => torch.where(mask([1, 0, 1, 1, 0, 0], [2, 3]), a, b),
  ],
  ['matmul', any([2, 3, 4]), any([4, 2]), (a, b) => a.matmul(b)],
  ['mm', any([3, 4]), any([4, 2]), (a, b) => a.mm(b)],
  ['bmm', any([2, 3, 4]), any([2, 4, 2]), (a, b) => a.bmm(b)],
  ['einsum', any([2, 3]), any([3, 4]), (a, b) => torch.einsum('ij,jk->ik', [a, b])],
  ['cat', any([2, 3]), any([1, 3]), (a, b) => torch.cat([a, b], 0)],
  ['stack', any([2, 3]), any([2, 3]), (a, b) => torch.stack([a, b], 1)],
  [
    'scatter (src)',
    any([3, 4]),
    any([3, 2]),
    (a, b) => a.scatter(1, idx([0, 3, 1, 2, 2, 0], [3, 2]), b),
  ],
  [
    'scatterAdd',
    any([3, 4]),
    any([3, 2]),
    (a, b) => a.scatterAdd(1, idx([0, 0, 1, 1, 3, 3], [3, 2]), b),
  ],
  ['clamp (tensor bounds)', any([3, 4]), any([3, 4]), (a, b) => a.clamp(b.mul(0.5), null)],
];

for (const [name, sa, sb, fn] of binary)
  test(`gradcheck ${name}`, () => gradcheck(name, [sa, sb], fn));

test('gradcheck linear (x, weight, bias)', () =>
  gradcheck('linear', [any([2, 3]), any([4, 3]), any([4])], (x, w, b) => torch.linear(x, w, b)));
test('gradcheck layerNorm (x, weight, bias)', () =>
  gradcheck('layerNorm affine', [any([3, 4]), pos([4]), any([4])], (x, w, b) =>
    torch.layerNorm(x, [4], w, b),
  ));

// The U-Net's ops: convolution with stride, padding and groups; group norm; nearest
// upsampling; average pooling.
test('gradcheck conv2d (x, weight, bias), stride 1, padding 1', () =>
  gradcheck('conv2d', [any([2, 2, 4, 4]), any([3, 2, 3, 3]), any([3])], (x, w, b) =>
    torch.conv2d(x, w, b, { padding: 1 }),
  ));
test('gradcheck conv2d stride 2, groups 2, no bias', () =>
  gradcheck('conv2d strided grouped', [any([1, 4, 5, 5]), any([4, 2, 3, 3])], (x, w) =>
    torch.conv2d(x, w, null, { stride: 2, padding: 1, groups: 2 }),
  ));
test('gradcheck groupNorm (x, weight, bias)', () =>
  gradcheck('groupNorm', [any([2, 4, 3, 3]), pos([4]), any([4])], (x, w, b) =>
    torch.groupNorm(x, 2, w, b),
  ));
test('gradcheck upsampleNearest2d and avgPool2d', () =>
  gradcheck('upsample+pool', [any([1, 2, 3, 4])], (x) =>
    torch.avgPool2d(torch.upsampleNearest2d(x, 6, 8).mul(x.repeat([1, 1, 2, 2])), 2),
  ));

test('gradcheck itself rejects a wrong gradient (x.detach() * x has half the true slope)', () => {
  assert.throws(
    () => gradcheck('wrong', [any([2, 2])], (x) => x.detach().mul(x)),
    /autograd .* vs finite difference/,
  );
});
