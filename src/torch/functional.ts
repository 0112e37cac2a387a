// Free functions over tensors: factories, joins, and the network ops (linear, embedding,
// layer_norm, cross_entropy, dropout) as single libtorch calls (docs/design.md §3), plus grad mode.
import { type HandleOrScalar, native } from './native.js';
import type { TorchGenerator } from './random.js';
import { type DType, type Operand, type Reduction, Tensor, type TypedArray } from './tensor.js';

const h = (x: Operand): HandleOrScalar => (x instanceof Tensor ? x.handle : x);

function typedFor(data: number[], dtype: DType): TypedArray {
  switch (dtype) {
    case 'float64':
      return Float64Array.from(data);
    case 'int64':
      return BigInt64Array.from(data, (v) => BigInt(Math.trunc(v)));
    case 'int32':
      return Int32Array.from(data);
    case 'bool':
    case 'uint8':
      return Uint8Array.from(data, (v) => (dtype === 'bool' ? (v ? 1 : 0) : v));
    default:
      return Float32Array.from(data);
  }
}

/** A nested array of numbers (as PyTorch's torch.tensor takes): its values in order, its shape. */
type Nested = number | boolean | readonly Nested[];

/**
 * The values and shape of a nested array: every element at one depth an array of the same
 * length, every leaf a number (or a boolean, as 1 or 0); a ragged array or another element is
 * refused naming where it is ("tensor: ragged nested array: [1] has 1 element, where ...").
 */
function flatten(data: readonly Nested[]): { values: number[]; shape: number[] } {
  const shape: number[] = [];
  for (let d: Nested = data; Array.isArray(d); d = (d as readonly Nested[])[0]!) {
    shape.push((d as readonly Nested[]).length);
    if ((d as readonly Nested[]).length === 0) break;
  }
  const values: number[] = [];
  const path: number[] = []; // the indices down to the element at hand (named only in errors)
  const at = () => path.map((i) => `[${i}]`).join('');
  const walk = (x: Nested, depth: number): void => {
    if (depth === shape.length) {
      if (typeof x === 'number') values.push(x);
      else if (typeof x === 'boolean') values.push(x ? 1 : 0);
      else
        throw new Error(
          Array.isArray(x)
            ? `tensor: ragged nested array: ${at()} is an array, where the first at its depth is not`
            : `tensor: ${at()} is ${typeof x === 'string' ? `the string ${JSON.stringify(x)}` : x === null || x === undefined ? String(x) : `a ${typeof x}`}; expected a number`,
        );
      return;
    }
    if (!Array.isArray(x))
      throw new Error(
        `tensor: ragged nested array: ${at()} is not an array, where the first at its depth is`,
      );
    if (x.length !== shape[depth])
      throw new Error(
        `tensor: ragged nested array: ${at()} has ${x.length} element${x.length === 1 ? '' : 's'}, where the first at its depth has ${shape[depth]}`,
      );
    for (let i = 0; i < x.length; i++) {
      path.push(i);
      walk(x[i]!, depth + 1);
      path.pop();
    }
  };
  walk(data as Nested, 0);
  return { values, shape };
}

/**
 * A tensor from a typed array (copied), a number array or a nested array of numbers (its shape
 * that of the nesting, as PyTorch's torch.tensor; a ragged one is refused); `shape` defaults to
 * the data's. Number arrays default to float32; typed arrays keep their element type unless
 * dtype says.
 */
export function tensor(
  data: TypedArray | readonly Nested[],
  shape?: number[],
  dtype?: DType,
): Tensor {
  if (!Array.isArray(data)) {
    const typed = data as TypedArray;
    return new Tensor(native.fromTyped(typed, shape ?? [typed.length], dtype));
  }
  const flat = flatten(data as readonly Nested[]);
  const typed = typedFor(flat.values, dtype ?? 'float32');
  return new Tensor(native.fromTyped(typed, shape ?? flat.shape, dtype));
}

/** A tensor from raw little-endian bytes (any dtype, including float16/bfloat16). */
export function fromBytes(bytes: Uint8Array, dtype: DType, shape: number[]): Tensor {
  return new Tensor(native.fromBytes(bytes, dtype, shape));
}

/** A 0-dim tensor. */
export function scalar(value: number, dtype: DType = 'float32'): Tensor {
  return full([], value, dtype);
}

export function zeros(shape: number[], dtype: DType = 'float32', device?: string): Tensor {
  return new Tensor(native.zeros(shape, dtype, device));
}
export function ones(shape: number[], dtype: DType = 'float32', device?: string): Tensor {
  return new Tensor(native.ones(shape, dtype, device));
}
export function full(
  shape: number[],
  value: number,
  dtype: DType = 'float32',
  device?: string,
): Tensor {
  return new Tensor(native.full(shape, value, dtype, device));
}
/** [start, end) in steps; int64 unless dtype says. */
export function arange(
  start: number,
  end: number,
  step = 1,
  dtype: DType = 'int64',
  device?: string,
): Tensor {
  return new Tensor(native.arange(start, end, step, dtype, device));
}
export function linspace(
  start: number,
  end: number,
  steps: number,
  dtype: DType = 'float32',
  device?: string,
): Tensor {
  return new Tensor(native.linspace(start, end, steps, dtype, device));
}
export function eye(n: number, dtype: DType = 'float32', device?: string): Tensor {
  return new Tensor(native.eye(n, dtype, device));
}
export function zerosLike(t: Tensor): Tensor {
  return zeros(t.shape, t.dtype, t.device);
}
export function onesLike(t: Tensor): Tensor {
  return ones(t.shape, t.dtype, t.device);
}

export function cat(ts: Tensor[], dim = 0): Tensor {
  return new Tensor(
    native.cat(
      ts.map((t) => t.handle),
      dim,
    ),
  );
}
export function stack(ts: Tensor[], dim = 0): Tensor {
  return new Tensor(
    native.stack(
      ts.map((t) => t.handle),
      dim,
    ),
  );
}
/** cond ? a : b, elementwise with broadcasting. */
export function where(cond: Tensor, a: Operand, b: Operand): Tensor {
  return new Tensor(native.where(cond.handle, h(a), h(b)));
}
export function einsum(equation: string, ts: Tensor[]): Tensor {
  return new Tensor(
    native.einsum(
      equation,
      ts.map((t) => t.handle),
    ),
  );
}

/** x [..., in] W^T [in, out] + b: weight [out, in], bias [out]. */
export function linear(x: Tensor, weight: Tensor, bias?: Tensor | null): Tensor {
  return new Tensor(native.linear(x.handle, weight.handle, bias?.handle));
}
/** weight [K, d] looked up at int64 indices [...] -> [..., d]. */
export function embedding(weight: Tensor, indices: Tensor): Tensor {
  return new Tensor(native.embedding(weight.handle, indices.handle));
}
/**
 * A normalisation's input in its weight's dtype: under autocast (native.ts) a product hands
 * bfloat16 to a norm whose weights are float32, which libtorch 1.13's CPU autocast leaves to
 * fail; norms run in float32, as later PyTorch's autocast runs them.
 */
const inWeightDtype = (x: Tensor, weight?: Tensor | null) =>
  weight && x.dtype !== weight.dtype ? x.to(weight.dtype) : x;

export function layerNorm(
  x: Tensor,
  normalizedShape: number[],
  weight?: Tensor | null,
  bias?: Tensor | null,
  eps = 1e-5,
): Tensor {
  const xw = inWeightDtype(x, weight);
  return new Tensor(
    native.layer_norm(xw.handle, normalizedShape, weight?.handle, bias?.handle, eps),
  );
}

/** 2-D convolution: x [N, C, H, W], weight [O, C/groups, kh, kw], bias [O] -> [N, O, H', W']. */
export function conv2d(
  x: Tensor,
  weight: Tensor,
  bias?: Tensor | null,
  o: { stride?: number; padding?: number; groups?: number } = {},
): Tensor {
  const stride = o.stride ?? 1;
  const padding = o.padding ?? 0;
  return new Tensor(
    native.conv2d(
      x.handle,
      weight.handle,
      bias?.handle,
      [stride, stride],
      [padding, padding],
      o.groups ?? 1,
    ),
  );
}
/** Group normalisation of x [N, C, ...] over `groups` groups of channels; weight, bias [C]. */
export function groupNorm(
  x: Tensor,
  groups: number,
  weight?: Tensor | null,
  bias?: Tensor | null,
  eps = 1e-5,
): Tensor {
  const xw = inWeightDtype(x, weight);
  return new Tensor(native.group_norm(xw.handle, groups, weight?.handle, bias?.handle, eps));
}
/** Nearest-neighbour upsampling x [N, C, H, W] -> [N, C, H', W']. */
export function upsampleNearest2d(x: Tensor, height: number, width: number): Tensor {
  return new Tensor(native.upsample_nearest2d(x.handle, [height, width]));
}
/** Average pooling x [N, C, H, W] with a square window of side k and stride k (default). */
export function avgPool2d(x: Tensor, k: number, stride = k): Tensor {
  return new Tensor(native.avg_pool2d(x.handle, [k, k], [stride, stride]));
}
/** Eigendecomposition of symmetric A [..., n, n]: eigenvalues [..., n] ascending, vectors as columns. */
export function eigh(a: Tensor): [Tensor, Tensor] {
  const [values, vectors] = native.linalg_eigh(a.handle);
  return [new Tensor(values), new Tensor(vectors)];
}

export interface CrossEntropyOptions {
  weight?: Tensor;
  reduction?: Reduction;
  ignoreIndex?: number;
  labelSmoothing?: number;
}
/** Cross-entropy of logits [N, K, ...] against int64 targets [N, ...] (libtorch's, fused with log_softmax). */
export function crossEntropy(
  logits: Tensor,
  target: Tensor,
  opts: CrossEntropyOptions = {},
): Tensor {
  return new Tensor(
    native.cross_entropy(
      logits.handle,
      target.handle,
      opts.weight?.handle,
      opts.reduction ?? 'mean',
      opts.ignoreIndex ?? -100,
      opts.labelSmoothing ?? 0,
    ),
  );
}

/** Inverted dropout with an explicit generator; identity when not training or p = 0. */
export function dropout(x: Tensor, p: number, training: boolean, gen: TorchGenerator): Tensor {
  if (!training || p === 0) return x;
  return new Tensor(native.dropout(x.handle, p, training, gen.handle));
}

/**
 * Global-norm gradient clipping (libtorch's clip_grad_norm_); returns the norm before clipping
 * as a 0-dim tensor (as PyTorch does: reading it is left to the caller, and on a GPU a read
 * waits for the device).
 */
export function clipGradNorm(params: Tensor[], maxNorm: number): Tensor {
  return new Tensor(
    native.clipGradNorm(
      params.map((p) => p.handle),
      maxNorm,
    ),
  );
}

/** Runs fn with autograd recording off (restored afterwards). */
export function noGrad<T>(fn: () => T): T {
  const prev = native.isGradEnabled();
  native.setGradEnabled(false);
  try {
    return fn();
  } finally {
    native.setGradEnabled(prev);
  }
}

export function isGradEnabled(): boolean {
  return native.isGradEnabled();
}
