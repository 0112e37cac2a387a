// Free functions that make tensors (docs/design.md §3): from typed, flat or nested arrays (as
// PyTorch's torch.tensor takes them), from raw bytes, and the factories zeros, ones, full, arange,
// linspace and eye, each a single libtorch call on the given device.
import { native } from './native.js';
import { type DType, Tensor, type TypedArray } from './tensor.js';

/** The integer dtypes' ranges: the least value, the first value past the greatest, as said. */
const INT_RANGE: Partial<Record<DType, [number, number, string]>> = {
  uint8: [0, 256, '0 to 255'],
  int32: [-(2 ** 31), 2 ** 31, '-2^31 to 2^31 - 1'],
  int64: [-(2 ** 63), 2 ** 63, '-2^63 to 2^63 - 1'],
};

/**
 * Refuses a value an integer dtype cannot hold (out of range, NaN, infinite) rather than wrap it
 * (uint8 300 to 44) or lose it (int64 2**70 to 0), naming the first; fractions truncate toward
 * zero, as PyTorch's do.
 */
function checkRange(data: number[], dtype: DType): void {
  const range = INT_RANGE[dtype];
  if (!range) return;
  const [lo, past, says] = range;
  const bad = data.findIndex((v) => !(Math.trunc(v) >= lo && Math.trunc(v) < past));
  if (bad >= 0)
    throw new Error(
      `tensor: ${data[bad]} (element ${bad}) does not fit ${dtype}, which holds ${says}`,
    );
}

function typedFor(data: number[], dtype: DType): TypedArray {
  checkRange(data, dtype);
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
            : `tensor: ${at()} is ${typeof x === 'string' ? `the string ${JSON.stringify(x)}` : x === null || x === undefined ? String(x) : `${typeof x === 'object' ? 'an' : 'a'} ${typeof x}`}; expected a number`,
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
