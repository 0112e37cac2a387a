// The TypeScript backend's data in and out and its factories (docs/design.md §3b), as the addon's
// tensor_io.cc: typed arrays copied in (their dtype by their kind, converted to the one asked),
// raw little-endian bytes of any dtype, typed arrays and bytes out (int64 as a BigInt64Array,
// bfloat16 and float16 as their 16-bit patterns in a Uint16Array), zeros, ones, full, arange,
// linspace, eye and conversion between dtypes.
import { DTYPE_BYTES, type DType, type TypedArray } from '../types.js';
import type { Buf } from './buffers.js';
import { asDtype, convertScalar, isFloating } from './dtypes.js';
import { dense, INT64_EXACT, type JsTensor, numelOf, values, view } from './tensor-data.js';

export function checkShape(shape: number[], op: string): number[] {
  if (!Array.isArray(shape) || shape.some((d) => !Number.isInteger(d) || d < 0))
    throw new Error(`${op}: shape: expected non-negative integers, got [${shape}]`);
  return shape.slice();
}

function kindOf(data: TypedArray): DType {
  if (data instanceof Float32Array) return 'float32';
  if (data instanceof Float64Array) return 'float64';
  if (data instanceof BigInt64Array) return 'int64';
  if (data instanceof Int32Array) return 'int32';
  if (data instanceof Uint8Array) return 'uint8';
  throw new Error(
    'unsupported typed array (use Float32Array, Float64Array, BigInt64Array, Int32Array or Uint8Array)',
  );
}

export function fromTyped(data: TypedArray, shape: number[], dtype?: DType): JsTensor {
  const s = checkShape(shape, 'fromTyped');
  if (numelOf(s) !== data.length)
    throw new Error(`shape does not match data: ${numelOf(s)} elements for ${data.length} values`);
  let src = kindOf(data);
  if (dtype === 'bool' && src === 'uint8') src = 'bool';
  let buf: Buf;
  if (data instanceof BigInt64Array) {
    buf = new Float64Array(data.length);
    for (let i = 0; i < data.length; i++) {
      const v = data[i]!;
      if (v > BigInt(INT64_EXACT) || v < -BigInt(INT64_EXACT))
        throw new Error(
          `int64 value ${v} lies beyond 2^53, which the TypeScript backend holds exactly (use the libtorch backend)`,
        );
      buf[i] = Number(v);
    }
  } else buf = (data as Buf).slice();
  if (src === 'bool') for (let i = 0; i < buf.length; i++) buf[i] = buf[i] ? 1 : 0;
  return asDtype(dense(src, s, buf), dtype ?? src);
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const bf16ToNumber = (bits: number) => {
  u32[0] = bits << 16;
  return f32[0]!;
};
const numberToBf16 = (x: number) => {
  f32[0] = x; // already rounded to bfloat16: the low half is zero
  return u32[0]! >>> 16;
};
function f16ToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? Number.NaN : s * Number.POSITIVE_INFINITY;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
function numberToF16(x: number): number {
  if (Number.isNaN(x)) return 0x7e00;
  const s = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === Number.POSITIVE_INFINITY) return s | 0x7c00;
  if (a < 2 ** -14) return s | Math.round(a / 2 ** -24);
  const e = Math.floor(Math.log2(a));
  const m = Math.round((a / 2 ** e - 1) * 1024);
  return s | ((e + 15) << 10) | m;
}

export function fromBytes(bytes: Uint8Array, dtype: DType, shape: number[]): JsTensor {
  const s = checkShape(shape, 'fromBytes');
  const n = numelOf(s);
  if (bytes.byteLength !== n * DTYPE_BYTES[dtype])
    throw new Error(`bytes: ${bytes.byteLength} bytes for a tensor of ${n * DTYPE_BYTES[dtype]}`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = dense(dtype, s);
  const o = out.data;
  for (let i = 0; i < n; i++) {
    switch (dtype) {
      case 'float32':
        o[i] = dv.getFloat32(i * 4, true);
        break;
      case 'float64':
        o[i] = dv.getFloat64(i * 8, true);
        break;
      case 'int64':
        // past 2^53 Number(v) exceeds what convertScalar accepts: refused, not rounded
        o[i] = convertScalar(Number(dv.getBigInt64(i * 8, true)), 'int64');
        break;
      case 'int32':
        o[i] = dv.getInt32(i * 4, true);
        break;
      case 'bfloat16':
        o[i] = bf16ToNumber(dv.getUint16(i * 2, true));
        break;
      case 'float16':
        o[i] = f16ToNumber(dv.getUint16(i * 2, true));
        break;
      default:
        o[i] = dv.getUint8(i);
    }
  }
  return out;
}

/** The elements as the addon gives them (a fresh array: this backend's memory is the GC's). */
export function toTyped(t: JsTensor): TypedArray {
  const v = values(t);
  switch (t.dtype) {
    case 'int64':
      return BigInt64Array.from(v as Float64Array, (x) => BigInt(x));
    case 'bfloat16':
      return Uint16Array.from(v as Float32Array, numberToBf16);
    case 'float16':
      return Uint16Array.from(v as Float32Array, numberToF16);
    default:
      return v === t.data ? (v as Buf).slice() : (v as Buf);
  }
}

export function bytes(t: JsTensor): Uint8Array {
  const a = toTyped(t);
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export function item(t: JsTensor): number | boolean {
  if (t.numel !== 1) throw new Error(`item: tensor has ${t.numel} elements, expected 1`);
  const v = t.data[t.offset]!;
  return t.dtype === 'bool' ? v !== 0 : v;
}

// ---- factories ----

export const zeros = (shape: number[], dtype: DType = 'float32') =>
  dense(dtype, checkShape(shape, 'zeros'));

export function full(shape: number[], value: number, dtype: DType = 'float32'): JsTensor {
  const d = dtype;
  const out = dense(d, checkShape(shape, 'full'));
  out.data.fill(convertScalar(value, d));
  return out;
}

export const ones = (shape: number[], dtype: DType = 'float32') => full(shape, 1, dtype);

/** start, start + step, ... below end; int64 unless a dtype is given, as the addon's. */
export function arange(start: number, end: number, step: number, d: DType = 'int64'): JsTensor {
  // an integer dtype takes the step as an integer (libtorch's cast): 0.25 refuses as 0 does
  if ((isFloating(d) ? step : Math.trunc(step)) === 0) throw new Error('step must be nonzero');
  if ((end - start) / step < 0)
    throw new Error('upper bound and larger bound inconsistent with step sign');
  const n = Math.ceil((end - start) / step);
  const out = dense(d, [n]);
  for (let i = 0; i < n; i++) out.data[i] = convertScalar(start + i * step, d);
  return out;
}

export function linspace(
  start: number,
  end: number,
  steps: number,
  dtype: DType = 'float32',
): JsTensor {
  if (steps < 0) throw new Error('number of steps must be non-negative');
  const out = dense(dtype, [steps]);
  const step = steps > 1 ? (end - start) / (steps - 1) : 0;
  // libtorch fills the first half from the start and the second half back from the end
  const half = Math.floor(steps / 2);
  for (let i = 0; i < steps; i++)
    out.data[i] = convertScalar(i < half ? start + step * i : end - step * (steps - i - 1), dtype);
  return out;
}

export function eye(n: number, dtype: DType = 'float32'): JsTensor {
  const out = dense(dtype, [n, n]);
  for (let i = 0; i < n; i++) out.data[i * n + i] = 1;
  return out;
}

export function to(t: JsTensor, dtype?: DType): JsTensor {
  // the same dtype: the same elements, as libtorch's `to` gives the tensor itself
  if (dtype === undefined || dtype === t.dtype) return view(t, t.shape, t.strides, t.offset);
  return asDtype(t, dtype);
}
