// The TypeScript backend against libtorch, op by op (src/torch/js/; docs/design.md §3b): the
// table walk (every function of the addon's table exists in both backends, and each one the
// TypeScript backend has is either refused naming libtorch or covered by a parity case here, so
// an op added to one backend without the other fails), then each case run on both backends from
// the same inputs: the same shape and dtype, float results within 1e-5 relative (float64 within
// 1e-12), integer and bool results equal, and the same refusals of bad input.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADDON_FUNCTIONS, type Handle, type Native } from '../src/torch/addon-api.js';
import { JS_REFUSED, jsBackend } from '../src/torch/js/backend.js';
import { native } from '../src/torch/native.js';
import type { DType } from '../src/torch/types.js';

const js = jsBackend;
// the addon itself (native is a live binding: stubs until the first call)
const torch = (): Native => {
  native.getNumThreads();
  return native;
};

/** Deterministic data in [-2, 2): a small LCG, the same for both backends. */
function data(n: number, seed: number): number[] {
  let s = seed * 2654435761 + 12345;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return (s / 2 ** 31) * 4 - 2;
  });
}

type Make = (values: number[], shape: number[], dtype?: DType) => Handle;
const maker =
  (b: Native): Make =>
  (values, shape, dtype = 'float32') =>
    b.fromTyped(Float64Array.from(values), shape, dtype);

/** A random tensor of `shape` (ints in [0, 5) for integer dtypes, bools by sign). */
const rnd = (mk: Make, shape: number[], dtype: DType = 'float32', seed = 1): Handle => {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = data(n, seed);
  if (dtype === 'bool')
    return mk(
      v.map((x) => (x > 0 ? 1 : 0)),
      shape,
      'uint8',
    ).valueOf() as Handle;
  if (dtype === 'int64' || dtype === 'int32' || dtype === 'uint8')
    return mk(
      v.map((x) => Math.floor((x + 2) * 1.25)),
      shape,
      dtype,
    );
  return mk(v, shape, dtype);
};

type Result = Handle | Handle[] | number | boolean | number[] | string | null | undefined;
/** A case: what it computes with backend b and its maker (inputs made fresh per backend). */
type Case = (b: Native, mk: Make) => Result;

const f =
  (shape: number[], seed = 1, dtype: DType = 'float32') =>
  (b: Native, mk: Make) =>
    dtype === 'bool' ? b.gt(rnd(mk, shape, 'float32', seed), 0) : rnd(mk, shape, dtype, seed);

// elementwise inputs: positive where the function needs it
const pos =
  (shape: number[], seed = 1) =>
  (b: Native, mk: Make) =>
    b.add(b.abs(rnd(mk, shape, 'float32', seed)), 0.1);

const U = (op: string, input = f([3, 4])): Case[] => [
  (b, mk) => (b as unknown as Record<string, (h: Handle) => Handle>)[op]!(input(b, mk)),
];
const POSITIVE = new Set(['log', 'sqrt', 'rsqrt', 'log2', 'lgamma', 'reciprocal']);
const UNIT = new Set(['erfinv', 'log1p']);

const CASES: Record<string, Case[]> = {};
for (const op of [
  'neg',
  'abs',
  'exp',
  'log',
  'log1p',
  'expm1',
  'sqrt',
  'rsqrt',
  'tanh',
  'sigmoid',
  'erf',
  'erfinv',
  'relu',
  'silu',
  'sin',
  'cos',
  'floor',
  'ceil',
  'round',
  'trunc',
  'sign',
  'reciprocal',
  'square',
  'lgamma',
  'log2',
  'exp2',
]) {
  CASES[op] = U(
    op,
    POSITIVE.has(op)
      ? pos([3, 4])
      : UNIT.has(op)
        ? (b, mk) => b.mul(rnd(mk, [3, 4]), 0.45)
        : f([3, 4]),
  );
  if (['neg', 'abs', 'sign', 'square', 'floor'].includes(op))
    CASES[op]!.push(...U(op, f([5], 2, 'int64')));
}
CASES.round!.push((b, mk) => b.round(mk([0.5, 1.5, 2.5, -0.5, -1.5, 2.4999], [6], 'float64')));
for (const op of ['logical_not', 'isnan', 'isinf', 'isfinite'])
  CASES[op] = [
    (b, mk) =>
      (b as unknown as Record<string, (h: Handle) => Handle>)[op]!(
        b.div(mk([1, 0, -1, 2, 0, 3], [2, 3]), mk([1, 0, 0, 1, 1, 1], [2, 3])),
      ),
  ];
const B = (op: string, ...extra: Case[]): Case[] => {
  const call = (b: Native, x: unknown, y: unknown) =>
    (b as unknown as Record<string, (a: unknown, c: unknown) => Handle>)[op]!(x, y);
  return [
    (b, mk) => call(b, rnd(mk, [2, 3, 4]), rnd(mk, [2, 3, 4], 'float32', 2)),
    (b, mk) => call(b, rnd(mk, [2, 1, 4]), rnd(mk, [3, 1], 'float32', 2)), // broadcast
    (b, mk) => call(b, rnd(mk, [3, 4], 'float64'), 1.5), // scalar
    (b, mk) => call(b, rnd(mk, [3, 4], 'float32'), rnd(mk, [], 'float64', 2)), // 0-dim keeps float32
    (b, mk) => call(b, b.transpose(rnd(mk, [4, 3]), 0, 1), rnd(mk, [3, 4], 'float32', 3)), // strided
    // the WebAssembly kernel's sizes (256 elements and more), rows not a multiple of its 4 lanes
    (b, mk) => call(b, rnd(mk, [4, 9, 33]), rnd(mk, [4, 1, 33], 'float32', 2)), // a DiT's modulation
    (b, mk) => call(b, rnd(mk, [2, 3, 9, 9]), rnd(mk, [1, 9, 9], 'float32', 2)), // attention's bias
    (b, mk) => call(b, rnd(mk, [3, 9, 1]), rnd(mk, [3, 1, 11], 'float32', 2)), // an outer sum
    (b, mk) => call(b, b.narrow(rnd(mk, [4, 9, 66]), 2, 33, 33), 0.75), // a view at an offset
    (b, mk) => call(b, 2.5, b.transpose(rnd(mk, [33, 12]), 0, 1)), // a column-major operand
    ...extra,
  ];
};
for (const op of ['add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'atan2', 'xlogy'])
  CASES[op] = B(op);
CASES.add!.push((b, mk) => b.add(rnd(mk, [4], 'int64'), rnd(mk, [4], 'int64', 2)));
CASES.add!.push((b, mk) => b.add(rnd(mk, [4], 'int64'), 2.5)); // int + float scalar -> float32
CASES.mul!.push((b, mk) => b.mul(rnd(mk, [4], 'int64'), rnd(mk, [4], 'float32', 2)));
CASES.div!.push((b, mk) => b.div(rnd(mk, [4], 'int64'), 3)); // true division
CASES.pow = [
  (b, mk) => b.pow(pos([3, 4])(b, mk), rnd(mk, [3, 4], 'float32', 2)),
  (b, mk) => b.pow(rnd(mk, [5], 'int64'), 2),
];
for (const op of ['eq', 'ne', 'lt', 'le', 'gt', 'ge'])
  CASES[op] = [
    ...B(op),
    (b, mk) =>
      (b as unknown as Record<string, (a: unknown, c: unknown) => Handle>)[op]!(
        rnd(mk, [6], 'int64'),
        2,
      ),
  ];
for (const op of ['logical_and', 'logical_or', 'logical_xor'])
  CASES[op] = [
    (b, mk) =>
      (b as unknown as Record<string, (a: unknown, c: unknown) => Handle>)[op]!(
        f([3, 4], 1, 'bool')(b, mk),
        f([3, 4], 2, 'bool')(b, mk),
      ),
  ];
for (const op of ['remainder', 'fmod'])
  CASES[op] = [
    (b, mk) =>
      (b as unknown as Record<string, (a: unknown, c: unknown) => Handle>)[op]!(
        mk([5, -5, 7.5, -7.5, 3], [5], 'float64'),
        mk([3, 3, -2, 2, 7], [5], 'float64'),
      ),
    (b, mk) =>
      (b as unknown as Record<string, (a: unknown, c: unknown) => Handle>)[op]!(
        mk([5, -5, 7, -7, 3], [5], 'int64'),
        3,
      ),
  ];
CASES.floor_divide = [
  (b, mk) => b.floor_divide(mk([5, -5, 7, -7], [4], 'int64'), 2),
  (b, mk) =>
    b.floor_divide(mk([5.5, -5.5, 7, -7], [4], 'float32'), mk([2, 2, -3, 3], [4], 'float32')),
];
for (const op of ['bitwise_and', 'bitwise_or'])
  CASES[op] = [
    (b, mk) =>
      (b as unknown as Record<string, (a: unknown, c: unknown) => Handle>)[op]!(
        mk([12, 10, 7, 255], [4], 'int64'),
        mk([10, 6, 1, 256], [4], 'int64'),
      ),
  ];

Object.assign(CASES, {
  gelu: [(b, mk) => b.gelu(rnd(mk, [3, 5])), (b, mk) => b.gelu(rnd(mk, [3, 5]), 'tanh')],
  clamp: [
    (b, mk) => b.clamp(rnd(mk, [3, 4]), -0.5, 0.5),
    (b, mk) => b.clamp(rnd(mk, [3, 4]), null, 0.25),
    (b, mk) => b.clamp(rnd(mk, [3, 4]), rnd(mk, [4], 'float32', 2)),
  ],
  where: [
    (b, mk) => b.where(f([3, 4], 3, 'bool')(b, mk), rnd(mk, [3, 4]), rnd(mk, [1, 4], 'float32', 2)),
    (b, mk) => b.where(f([3, 4], 3, 'bool')(b, mk), rnd(mk, [3, 4], 'float64'), 0),
  ],
  sum: [
    (b, mk) => b.sum(rnd(mk, [3, 4, 5])),
    (b, mk) => b.sum(rnd(mk, [3, 4, 5]), [0, 2], true),
    (b, mk) => b.sum(rnd(mk, [3, 4], 'int64'), 1),
    (b, mk) => b.sum(f([3, 4], 1, 'bool')(b, mk), -1),
  ],
  mean: [(b, mk) => b.mean(rnd(mk, [3, 4, 5]), 1), (b, mk) => b.mean(rnd(mk, [3, 4], 'float64'))],
  amax: [(b, mk) => b.amax(rnd(mk, [3, 4, 5]), [1, 2])],
  amin: [(b, mk) => b.amin(rnd(mk, [3, 4, 5]), 0, true)],
  logsumexp: [(b, mk) => b.logsumexp(rnd(mk, [3, 4, 5]), -1)],
  var: [(b, mk) => b.var(rnd(mk, [3, 6]), 1), (b, mk) => b.var(rnd(mk, [3, 6]), 1, false, true)],
  std: [(b, mk) => b.std(rnd(mk, [3, 6]), [0, 1])],
  norm: [(b, mk) => b.norm(rnd(mk, [3, 6]), 2, 1), (b, mk) => b.norm(rnd(mk, [3, 6]), 1)],
  argmax: [(b, mk) => b.argmax(rnd(mk, [3, 6]), 1), (b, mk) => b.argmax(rnd(mk, [3, 6]))],
  argmin: [(b, mk) => b.argmin(rnd(mk, [3, 6]), 0, true)],
  maxDim: [(b, mk) => b.maxDim(rnd(mk, [3, 6]), 1)],
  minDim: [(b, mk) => b.minDim(rnd(mk, [3, 6]), 0, true)],
  all: [(b, mk) => b.all(f([3, 4], 1, 'bool')(b, mk), 1), (b, mk) => b.all(b.ge(rnd(mk, [3]), -5))],
  any: [(b, mk) => b.any(f([3, 4], 1, 'bool')(b, mk), 0)],
  cumsum: [(b, mk) => b.cumsum(rnd(mk, [3, 4]), 1), (b, mk) => b.cumsum(rnd(mk, [5], 'int64'), 0)],
  softmax: [
    // a masked row (attention's -inf scores): exactly 0 there
    (b, mk) =>
      b.softmax(
        b.masked_fill(rnd(mk, [3, 6]), f([6], 2, 'bool')(b, mk), Number.NEGATIVE_INFINITY),
        -1,
      ),
    (b, mk) => b.softmax(rnd(mk, [2, 3, 37]), -1),

    (b, mk) => b.softmax(rnd(mk, [3, 4, 5]), -1),
    (b, mk) => b.softmax(rnd(mk, [3, 4], 'float64'), 0),
  ],
  log_softmax: [(b, mk) => b.log_softmax(rnd(mk, [3, 4, 5]), 1)],
  sort: [
    (b, mk) => b.sort(rnd(mk, [3, 7]), 1),
    (b, mk) => b.sort(rnd(mk, [3, 7], 'float64'), 0, true),
  ],
  topk: [(b, mk) => b.topk(rnd(mk, [3, 7]), 3, 1), (b, mk) => b.topk(rnd(mk, [3, 7]), 2, 0, false)],
  contiguous: [
    (b, mk) => b.contiguous(b.transpose(rnd(mk, [3, 4]), 0, 1)),
    (b, mk) => b.contiguous(b.permute(b.narrow(rnd(mk, [4, 9, 40]), 2, 3, 33), [2, 0, 1])),
  ],
  clone: [(b, mk) => b.clone(b.narrow(rnd(mk, [3, 4]), 1, 1, 2))],
  detach: [(b, mk) => b.detach(rnd(mk, [3, 4]))],
  reshape: [(b, mk) => b.reshape(b.transpose(rnd(mk, [3, 4]), 0, 1), [2, -1])],
  view: [(b, mk) => b.view(rnd(mk, [3, 4]), [4, 3])],
  permute: [(b, mk) => b.permute(rnd(mk, [2, 3, 4]), [2, 0, 1])],
  transpose: [(b, mk) => b.transpose(rnd(mk, [2, 3, 4]), -1, 0)],
  squeeze: [(b, mk) => b.squeeze(rnd(mk, [1, 3, 1])), (b, mk) => b.squeeze(rnd(mk, [1, 3, 1]), 2)],
  unsqueeze: [(b, mk) => b.unsqueeze(rnd(mk, [3, 4]), 1)],
  expand: [(b, mk) => b.contiguous(b.expand(rnd(mk, [3, 1]), [2, 3, 4]))],
  flatten: [(b, mk) => b.flatten(rnd(mk, [2, 3, 4]), 1)],
  repeat: [(b, mk) => b.repeat(rnd(mk, [2, 3]), [2, 1, 2])],
  flip: [(b, mk) => b.flip(rnd(mk, [2, 3, 4]), [0, 2])],
  narrow: [(b, mk) => b.narrow(rnd(mk, [5, 4]), 0, 1, 3)],
  select: [(b, mk) => b.select(rnd(mk, [5, 4]), 1, -1)],
  cat: [
    (b, mk) => b.cat([rnd(mk, [2, 3]), rnd(mk, [4, 3], 'float32', 2)], 0),
    (b, mk) => b.cat([rnd(mk, [2, 3]), rnd(mk, [2, 2], 'float64', 2)], 1),
  ],
  stack: [(b, mk) => b.stack([rnd(mk, [2, 3]), rnd(mk, [2, 3], 'float32', 2)], 1)],
  split: [
    (b, mk) => b.split(rnd(mk, [5, 2]), 2, 0),
    (b, mk) => b.split(rnd(mk, [5, 2]), [1, 4], 0),
  ],
  chunk: [(b, mk) => b.chunk(rnd(mk, [5, 2]), 3, 0)],
  index_select: [(b, mk) => b.index_select(rnd(mk, [5, 3]), 0, mk([4, 0, 4], [3], 'int64'))],
  gather: [(b, mk) => b.gather(rnd(mk, [3, 4]), 1, mk([0, 3, 1, 1, 2, 0], [3, 2], 'int64'))],
  scatter: [
    (b, mk) =>
      b.scatter(
        rnd(mk, [3, 4]),
        1,
        mk([0, 3, 1, 2, 2, 0], [3, 2], 'int64'),
        rnd(mk, [3, 2], 'float32', 2),
      ),
    (b, mk) =>
      b.scatter(rnd(mk, [3, 4], 'float64'), 1, mk([0, 3, 1, 2, 2, 0], [3, 2], 'int64'), 1.5),
  ],
  scatter_add: [
    (b, mk) =>
      b.scatter_add(
        rnd(mk, [3, 4]),
        1,
        mk([0, 0, 1, 1, 2, 2], [3, 2], 'int64'),
        rnd(mk, [3, 2], 'float32', 2),
      ),
  ],
  masked_fill: [(b, mk) => b.masked_fill(rnd(mk, [3, 4]), f([4], 2, 'bool')(b, mk), -1e9)],
  index: [
    (b, mk) => b.index(rnd(mk, [5, 3]), [mk([4, 0, 2], [3], 'int64')]),
    (b, mk) => b.index(rnd(mk, [5, 3]), [mk([4, 0], [2], 'int64'), mk([2, 1], [2], 'int64')]),
    (b, mk) => b.index(rnd(mk, [3, 4]), [f([3, 4], 2, 'bool')(b, mk)]),
  ],
  nonzero: [(b, mk) => b.nonzero(f([3, 4], 2, 'bool')(b, mk))],
  one_hot: [
    (b, mk) => b.one_hot(mk([0, 3, 1], [3], 'int64'), 5),
    (b, mk) => b.one_hot(mk([0, 3, 1], [3], 'int64')),
  ],
  matmul: [
    (b, mk) => b.matmul(rnd(mk, [3, 5]), rnd(mk, [5, 4], 'float32', 2)),
    (b, mk) => b.matmul(rnd(mk, [2, 1, 3, 5]), rnd(mk, [4, 5, 2], 'float32', 2)),
    (b, mk) => b.matmul(rnd(mk, [5]), rnd(mk, [5], 'float32', 2)),
    (b, mk) => b.matmul(rnd(mk, [3, 5], 'float64'), rnd(mk, [5], 'float64', 2)),
    (b, mk) => b.matmul(rnd(mk, [5]), rnd(mk, [2, 5, 3], 'float32', 2)),
    // the WebAssembly kernel's sizes (K >= 8): attention's views read through their strides
    (b, mk) => {
      const qkv = b.permute(rnd(mk, [2, 7, 3, 16]), [0, 2, 1, 3]); // [2, 3, 7, 16], heads apart
      return b.matmul(qkv, b.transpose(qkv, -2, -1)); // [2, 3, 7, 7]
    },
    (b, mk) => b.matmul(rnd(mk, [2, 1, 6, 9]), rnd(mk, [3, 9, 10], 'float32', 2)),
    (b, mk) => {
      const qkv = b.permute(b.view(rnd(mk, [2, 13, 3, 2, 12]), [2, 13, 6, 12]), [0, 2, 1, 3]);
      const [q, k] = b.chunk(qkv, 3, 1) as [Handle, Handle]; // [2, 2, 13, 12] each, apart
      return b.matmul(b.matmul(q, b.transpose(k, -2, -1)), k); // attention's two products
    },
  ],
  mm: [(b, mk) => b.mm(rnd(mk, [3, 5]), b.transpose(rnd(mk, [4, 5], 'float32', 2), 0, 1))],
  bmm: [(b, mk) => b.bmm(rnd(mk, [2, 3, 5]), rnd(mk, [2, 5, 4], 'float32', 2))],
  linear: [
    (b, mk) =>
      b.linear(rnd(mk, [2, 3, 5]), rnd(mk, [7, 5], 'float32', 2), rnd(mk, [7], 'float32', 3)),
    (b, mk) => b.linear(rnd(mk, [4, 33]), rnd(mk, [6, 33], 'float32', 2)),
  ],
  einsum: [
    (b, mk) => b.einsum('ij,jk->ik', [rnd(mk, [3, 4]), rnd(mk, [4, 2], 'float32', 2)]),
    (b, mk) =>
      b.einsum('bn,nlk->blk', [rnd(mk, [2, 3], 'float64'), rnd(mk, [3, 4, 5], 'float64', 2)]),
  ],
  embedding: [(b, mk) => b.embedding(rnd(mk, [6, 4]), mk([5, 0, 2, 2], [2, 2], 'int64'))],
  layer_norm: [
    (b, mk) =>
      b.layer_norm(rnd(mk, [2, 3, 8]), [8], rnd(mk, [8], 'float32', 2), rnd(mk, [8], 'float32', 3)),
    (b, mk) => b.layer_norm(rnd(mk, [2, 3, 8]), [3, 8], null, null, 1e-6),
    (b, mk) => b.layer_norm(rnd(mk, [5, 33]), [33], rnd(mk, [33], 'float32', 2), null),
    (b, mk) => b.layer_norm(b.transpose(rnd(mk, [33, 5]), 0, 1), [33], null, rnd(mk, [33])),
    (b, mk) => b.layer_norm(rnd(mk, [4, 7], 'float64'), [7], rnd(mk, [7], 'float64', 2), null),
  ],
  conv2d: [
    (b, mk) =>
      b.conv2d(
        rnd(mk, [2, 3, 6, 5]),
        rnd(mk, [4, 3, 3, 3], 'float32', 2),
        rnd(mk, [4], 'float32', 3),
        [1, 1],
        [1, 1],
      ),
    (b, mk) =>
      b.conv2d(rnd(mk, [1, 4, 6, 6]), rnd(mk, [4, 2, 3, 3], 'float32', 2), null, [2, 2], [0, 0], 2),
  ],
  group_norm: [
    (b, mk) =>
      b.group_norm(
        rnd(mk, [2, 4, 3, 3]),
        2,
        rnd(mk, [4], 'float32', 2),
        rnd(mk, [4], 'float32', 3),
      ),
  ],
  upsample_nearest2d: [(b, mk) => b.upsample_nearest2d(rnd(mk, [1, 2, 3, 3]), [6, 6])],
  avg_pool2d: [(b, mk) => b.avg_pool2d(rnd(mk, [1, 2, 4, 6]), [2, 2], [2, 2])],
  linalg_eigh: [
    (b, mk) => {
      const a = rnd(mk, [4, 4], 'float64');
      const s = b.add(a, b.transpose(a, 0, 1)); // symmetric
      const [l, v] = b.linalg_eigh(s) as [Handle, Handle];
      // eigenvectors are defined up to sign: compare V diag(l) V^T, which is s again
      return [l, b.matmul(b.mul(v, l), b.transpose(v, 0, 1))];
    },
  ],
  cross_entropy: [
    (b, mk) => b.cross_entropy(rnd(mk, [4, 5]), mk([0, 4, 2, 1], [4], 'int64'), null, 'mean'),
    (b, mk) =>
      b.cross_entropy(rnd(mk, [2, 5, 3]), mk([0, 4, 2, 1, -100, 3], [2, 3], 'int64'), null, 'none'),
    (b, mk) =>
      b.cross_entropy(
        rnd(mk, [4, 5]),
        mk([0, 4, 2, 1], [4], 'int64'),
        rnd(mk, [5], 'float32', 7),
        'sum',
        -100,
        0.1,
      ),
  ],
  equal: [
    (b, mk) => b.equal(rnd(mk, [3]), rnd(mk, [3])),
    (b, mk) => b.equal(rnd(mk, [3]), rnd(mk, [3], 'float32', 2)),
  ],
} satisfies Record<string, Case[]>);

/** In-place ops: the tensor after, through a view of it. */
const inPlace =
  (fn: (b: Native, x: Handle, mk: Make) => void): Case =>
  (b, mk) => {
    const x = rnd(mk, [3, 4]);
    fn(b, b.narrow(x, 1, 1, 2), mk);
    return x;
  };
Object.assign(CASES, {
  add_: [inPlace((b, v, mk) => b.add_(v, rnd(mk, [2], 'float32', 2), 0.5))],
  mul_: [inPlace((b, v) => b.mul_(v, 3))],
  copy_: [inPlace((b, v, mk) => b.copy_(v, rnd(mk, [3, 1], 'float64', 2)))],
  zero_: [inPlace((b, v) => b.zero_(v))],
  fill_: [inPlace((b, v) => b.fill_(v, 0.25))],
  lerp_: [inPlace((b, v, mk) => b.lerp_(v, rnd(mk, [3, 2], 'float32', 2), 0.7))],
  masked_fill_: [inPlace((b, v, mk) => b.masked_fill_(v, f([3, 2], 2, 'bool')(b, mk), -2))],
  // data in and out, factories, conversion
  fromTyped: [
    (b) => b.fromTyped(new BigInt64Array([1n, -2n, 3n]), [3]),
    (b) => b.fromTyped(new Uint8Array([0, 1, 1]), [3], 'bool'),
  ],
  fromBytes: [
    (b) => b.fromBytes(new Uint8Array([0, 0, 128, 63, 0, 0, 0, 192]), 'float32', [2]),
    (b) => b.fromBytes(new Uint8Array([128, 63, 0, 192]), 'bfloat16', [2]),
  ],
  toTyped: [(b, mk) => Array.from(b.toTyped(b.transpose(rnd(mk, [2, 3]), 0, 1)) as Float32Array)],
  bytes: [(b, mk) => Array.from(b.bytes(rnd(mk, [2, 2], 'int64')))],
  item: [(b, mk) => b.item(b.sum(rnd(mk, [4]))), (b, mk) => b.item(b.all(b.ge(rnd(mk, [4]), -3)))],
  info: [(b, mk) => JSON.stringify(b.info(rnd(mk, [2, 3], 'int64')))],
  shape: [(b, mk) => b.shape(rnd(mk, [2, 3]))],
  dtype: [(b, mk) => b.dtype(rnd(mk, [2, 3], 'float64'))],
  device: [(b, mk) => b.device(rnd(mk, [2]))],
  zeros: [(b) => b.zeros([2, 3], 'int64')],
  ones: [(b) => b.ones([2, 3])],
  full: [(b) => b.full([2, 2], 2.5), (b) => b.full([2], 3)],
  arange: [
    (b) => b.arange(0, 5, 1),
    (b) => b.arange(0, 1, 0.25, 'float32'),
    (b) => b.arange(5, 0, -2, 'float64'),
  ],
  linspace: [(b) => b.linspace(0, 1, 7), (b) => b.linspace(-1, 1, 5, 'float64')],
  eye: [(b) => b.eye(3, 'float64')],
  to: [
    (b, mk) => b.to(rnd(mk, [4]), 'int64'),
    (b, mk) => b.to(rnd(mk, [4], 'int64'), 'bool'),
    (b, mk) => b.to(rnd(mk, [4]), 'bfloat16'),
  ],
} satisfies Record<string, Case[]>);

/** Functions checked by their own tests below, or that only report on this process. */
const ELSEWHERE = new Set([
  // runtime: thread counts, devices, versions, memory (each backend's own)
  'setNumThreads',
  'setParallelThreads',
  'getNumThreads',
  'getBlasThreads',
  'setDefaultDevice',
  'setAllowTF32',
  'getAllowTF32',
  'setAutocast',
  'getDefaultDevice',
  'version',
  'memoryStats',
  'format',
  'dispose',
  'isDisposed',
  // draws: the generator's own test (the same uniforms as libtorch's engine)
  'newGenerator',
  'generatorGetState',
  'generatorSetState',
  'rand',
  'randn',
  'randnRows',
  'randint',
  'randperm',
  'bernoulli',
  'multinomial',
  'dropout',
  // autograd's flags (the backward pass is refused)
  'setRequiresGrad',
  'grad',
  'clearGrad',
  'setGradEnabled',
  'isGradEnabled',
]);

test('the op table: both backends have every function; each is refused, covered here or tested below', () => {
  const t = torch();
  const uncovered: string[] = [];
  for (const name of ADDON_FUNCTIONS) {
    assert.equal(
      typeof (js as unknown as Record<string, unknown>)[name],
      'function',
      `js lacks ${name}`,
    );
    assert.equal(
      typeof (t as unknown as Record<string, unknown>)[name],
      'function',
      `the addon lacks ${name}`,
    );
    const refused = (JS_REFUSED as readonly string[]).includes(name);
    if (!refused && !CASES[name] && !ELSEWHERE.has(name)) uncovered.push(name);
  }
  assert.deepEqual(uncovered, [], 'ops with no parity case');
  for (const name of JS_REFUSED)
    assert.throws(
      () => (js as unknown as Record<string, () => unknown>)[name]!(),
      /needs the libtorch backend; this process runs the TypeScript backend \(install libtorch/,
      name,
    );
});

type Plain = { shape: number[]; dtype: string; values: number[] } | unknown;
function plain(b: Native, r: Result): Plain {
  if (Array.isArray(r) && r.length > 0 && typeof r[0] === 'object')
    return (r as Handle[]).map((h) => plain(b, h));
  if (r !== null && typeof r === 'object' && !Array.isArray(r)) {
    const h = r as Handle;
    return {
      shape: b.shape(h),
      dtype: b.dtype(h),
      values: Array.from(b.toTyped(h) as ArrayLike<number | bigint>, (v) => Number(v)),
    };
  }
  return r;
}

function close(a: Plain, e: Plain, where: string): void {
  if (Array.isArray(a) && Array.isArray(e) && a.length === e.length && typeof a[0] === 'object') {
    for (let i = 0; i < a.length; i++) close(a[i], e[i], `${where}[${i}]`);
    return;
  }
  if (a && typeof a === 'object' && !Array.isArray(a) && 'values' in (a as object)) {
    const x = a as { shape: number[]; dtype: string; values: number[] };
    const y = e as typeof x;
    assert.deepEqual([x.shape, x.dtype], [y.shape, y.dtype], `${where}: shape and dtype`);
    const tol = x.dtype === 'float64' ? 1e-12 : x.dtype === 'bfloat16' ? 1e-2 : 1e-5;
    x.values.forEach((v, i) => {
      const w = y.values[i]!;
      const ok = Number.isNaN(w)
        ? Number.isNaN(v)
        : v === w || Math.abs(v - w) <= tol * Math.max(1, Math.abs(w));
      assert.ok(ok, `${where}[${i}]: ${v} against libtorch's ${w}`);
    });
    return;
  }
  if (typeof a === 'number' && typeof e === 'number') {
    assert.ok(Math.abs(a - e) <= 1e-5 * Math.max(1, Math.abs(e)), `${where}: ${a} against ${e}`);
    return;
  }
  assert.deepEqual(a, e, where);
}

test('every covered op gives libtorch results on the TypeScript backend', () => {
  const t = torch();
  const failed: string[] = [];
  for (const [name, cases] of Object.entries(CASES))
    cases.forEach((c, i) => {
      try {
        const want = plain(t, c(t, maker(t)));
        const got = plain(js, c(js, maker(js)));
        close(got, want, `${name} case ${i}`);
      } catch (e) {
        failed.push(`${name} case ${i}: ${(e as Error).message.split('\n')[0]}`);
      }
    });
  assert.deepEqual(failed, []);
});

test('bad input is refused by both backends', () => {
  const t = torch();
  const bad: [string, Case][] = [
    ['shapes that do not broadcast', (b, mk) => b.add(rnd(mk, [2, 3]), rnd(mk, [4]))],
    ['matmul of mismatched inner sizes', (b, mk) => b.matmul(rnd(mk, [2, 3]), rnd(mk, [4, 2]))],
    ['an index out of range', (b, mk) => b.index_select(rnd(mk, [3]), 0, mk([3], [1], 'int64'))],
    ['a view across strides', (b, mk) => b.view(b.transpose(rnd(mk, [3, 4]), 0, 1), [12])],
    ['a dimension out of range', (b, mk) => b.sum(rnd(mk, [3]), 2)],
    ['a mean of integers', (b, mk) => b.mean(rnd(mk, [3], 'int64'))],
    ['a narrow past the end', (b, mk) => b.narrow(rnd(mk, [3]), 0, 2, 2)],
    [
      'multinomial on a negative weight',
      (b, mk) => b.multinomial(mk([0.5, -1], [2]), 1, true, b.newGenerator(0)),
    ],
    [
      'an int64 embedding index past the table',
      (b, mk) => b.embedding(rnd(mk, [3, 2]), mk([3], [1], 'int64')),
    ],
    [
      'a disposed tensor',
      (b, mk) => {
        const x = rnd(mk, [2]);
        b.dispose(x);
        return b.add(x, 1);
      },
    ],
  ];
  for (const [what, c] of bad) {
    assert.throws(() => c(t, maker(t)), `libtorch accepts ${what}`);
    assert.throws(() => c(js, maker(js)), `the TypeScript backend accepts ${what}`);
  }
  // an int64 the TypeScript backend cannot hold exactly is refused, not rounded
  assert.throws(() => js.fromTyped(new BigInt64Array([2n ** 60n]), [1]), /beyond 2\^53/);
});

test("the draws: libtorch's engine gives the same uniforms; normals agree to float32 rounding", () => {
  const t = torch();
  for (const seed of [0, 7, 123456789]) {
    for (const dtype of ['float32', 'float64'] as const) {
      const a = Array.from(t.toTyped(t.rand([40], t.newGenerator(seed), dtype)) as Float32Array);
      const b = Array.from(js.toTyped(js.rand([40], js.newGenerator(seed), dtype)) as Float32Array);
      assert.deepEqual(b, a, `rand ${dtype} seed ${seed}`);
    }
    // 16 or more normals: libtorch's normal_fill (vectorised math: within float32's rounding)
    const n = (b: Native) =>
      Array.from(b.toTyped(b.randn([37], b.newGenerator(seed), 'float64')) as Float64Array);
    close(
      { shape: [37], dtype: 'float32', values: n(js) },
      { shape: [37], dtype: 'float32', values: n(t) },
      `randn seed ${seed}`,
    );
  }
  // a generator's state round-trips: the draws after restoring are the draws after saving
  const g = js.newGenerator(5);
  js.rand([3], g);
  const s = js.generatorGetState(g);
  const after = js.toTyped(js.rand([4], g));
  js.generatorSetState(g, s);
  assert.deepEqual(js.toTyped(js.rand([4], g)), after);
  // a state of libtorch's layout is refused naming the backend
  assert.throws(
    () => js.generatorSetState(g, js.zeros([5056], 'uint8')),
    /libtorch resumes on the libtorch backend/,
  );
});

test('categorical draws follow their probabilities (chi-square, 4,000 draws a row)', () => {
  const g = js.newGenerator(11);
  const p = [0.1, 0.2, 0.3, 0.4];
  const probs = js.fromTyped(Float64Array.from([...p, ...[0, 0.5, 0, 0.5]]), [2, 4]);
  const draws = Array.from(
    js.toTyped(js.multinomial(probs, 4000, true, g)) as BigInt64Array,
    Number,
  );
  for (const [row, q] of [
    [0, p],
    [1, [0, 0.5, 0, 0.5]],
  ] as const) {
    const counts = [0, 0, 0, 0];
    for (const d of draws.slice(row * 4000, (row + 1) * 4000)) counts[d]!++;
    let chi = 0;
    q.forEach((x, k) => {
      if (x === 0) assert.equal(counts[k], 0, `row ${row}: a zero-probability category drawn`);
      else chi += (counts[k]! - 4000 * x) ** 2 / (4000 * x);
    });
    // 3 degrees of freedom at most: the 0.999 quantile is 16.27
    assert.ok(chi < 16.27, `row ${row}: chi-square ${chi.toFixed(2)} for counts ${counts}`);
  }
  // without replacement: n distinct categories, never a zero-probability one
  const w = js.toTyped(
    js.multinomial(js.fromTyped(Float64Array.from([0, 1, 2, 3, 0]), [5]), 3, false, g),
  );
  assert.deepEqual([...(w as BigInt64Array)].map(Number).sort(), [1, 2, 3]);
});

test('training on the TypeScript backend is refused in one line naming libtorch', () => {
  const x = js.fromTyped(Float32Array.from([1, 2]), [2]);
  js.setRequiresGrad(x, true); // a model marks its parameters: allowed
  assert.equal(js.info(x).requiresGrad, true);
  assert.throws(
    () => js.backward(js.sum(x)),
    /^Error: training \(autograd\) needs the libtorch backend/,
  );
  assert.throws(
    () => js.newOptimizer('adamw', [{ params: [x] }], {}),
    /the optimisers\) needs the libtorch backend/,
  );
  assert.throws(() => js.to(x, 'float32', 'cuda'), /runs on the CPU only/);
});
