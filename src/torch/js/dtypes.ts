// The TypeScript backend's element types (docs/design.md §3b): PyTorch's type promotion
// (torch.result_type) of an op's operands, and the conversions of elements between dtypes:
// float16 and bfloat16 rounded to nearest-even from float32, integers truncated, bool as 0 or 1.
import type { DType } from '../types.js';
import { type Buf, newBuf } from './buffers.js';
import { dense, INT64_EXACT, JsTensor, values } from './tensor-data.js';

// ---- dtypes and promotion (PyTorch's torch.result_type) ----

/** bool 0 < integers 1 < floating 2. */
export const category = (d: DType): 0 | 1 | 2 =>
  d === 'bool' ? 0 : d === 'uint8' || d === 'int32' || d === 'int64' ? 1 : 2;

export const isFloating = (d: DType): boolean => category(d) === 2;

/** Refuses an op on a dtype that is not floating, in libtorch's words. */
export function checkFloat(dtype: DType, op: string): void {
  if (!isFloating(dtype)) throw new Error(`${op}: not implemented for '${dtype}'`);
}

const RANK: Record<DType, number> = {
  bool: 0,
  uint8: 1,
  int32: 2,
  int64: 3,
  float16: 4,
  bfloat16: 4,
  float32: 5,
  float64: 6,
};

/** torch.promote_types for two dtypes. */
export function promoteTypes(a: DType, b: DType): DType {
  if (a === b) return a;
  if ((a === 'float16' && b === 'bfloat16') || (a === 'bfloat16' && b === 'float16'))
    return 'float32';
  return RANK[a] >= RANK[b] ? a : b;
}

export type Operand = JsTensor | number | boolean;

/** The dtype of a scalar operand: bool, int64 for an integral number, else float64. */
const scalarDtype = (x: number | boolean): DType =>
  typeof x === 'boolean' ? 'bool' : Number.isInteger(x) && Math.abs(x) < 9e15 ? 'int64' : 'float64';

/**
 * The result dtype of an op on `operands` (torch.result_type): tensors of one or more dimensions
 * first, then zero-dimensional tensors, then scalars; a later group raises the result only to a
 * higher category, and then to that category's default (a scalar's: int64, float32).
 */
export function resultType(...operands: Operand[]): DType {
  const groups: (DType | null)[] = [null, null, null];
  for (const o of operands) {
    const [g, d] =
      o instanceof JsTensor ? [o.shape.length > 0 ? 0 : 1, o.dtype] : [2, scalarDtype(o)];
    groups[g] = groups[g] === null ? d : promoteTypes(groups[g]!, d);
  }
  let out: DType | null = null;
  for (let g = 0; g < 3; g++) {
    const d = groups[g];
    if (d === null || d === undefined) continue;
    if (out === null) out = g === 2 && d === 'float64' ? 'float32' : d;
    else if (category(d) > category(out))
      out = g === 2 ? (category(d) === 2 ? 'float32' : 'int64') : d;
  }
  return out ?? 'float32';
}

// ---- element conversion ----

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** x rounded to bfloat16 (round to nearest even), as a number. */
export function toBfloat16(x: number): number {
  f32[0] = x;
  if (Number.isNaN(x)) return x;
  const u = u32[0]!;
  u32[0] = ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) << 16;
  return f32[0]!;
}

/** x rounded to float16's precision and range, as a number. */
export function toFloat16(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return Math.sign(x) * Number.POSITIVE_INFINITY;
  // the spacing of float16 at |x|: 2^(e - 10), subnormals below 2^-14
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  const q = 2 ** (e - 10);
  const r = a / q;
  let n = Math.round(r);
  if (Math.abs(r - Math.trunc(r) - 0.5) < 1e-12 && n % 2 === 1) n -= 1; // ties to even
  return Math.sign(x) * n * q;
}

/** A number as an element of `dtype` (integers truncated toward zero, bools 0 or 1). */
export function convertScalar(x: number, dtype: DType): number {
  switch (dtype) {
    case 'bool':
      return x !== 0 && !Number.isNaN(x) ? 1 : 0;
    case 'uint8':
      return Math.trunc(x) & 255;
    case 'int32':
      return Math.trunc(x) | 0;
    case 'int64': {
      const v = Math.trunc(x);
      if (!Number.isFinite(v) || Math.abs(v) > INT64_EXACT)
        throw new Error(
          `js backend: ${x} as int64 lies beyond 2^53, which the TypeScript backend holds exactly (use the libtorch backend)`,
        );
      return v;
    }
    case 'bfloat16':
      return toBfloat16(x);
    case 'float16':
      return toFloat16(x);
    default:
      return x;
  }
}

/** A dense buffer of `src`'s values as `dtype` (the same buffer when no conversion is needed). */
export function convertBuf(src: Buf, from: DType, to: DType): Buf {
  if (from === to) return src;
  const out = newBuf(to, src.length);
  const exactCopy =
    (from === 'int64' && to === 'float64') ||
    (to === 'float64' && (from === 'float32' || from === 'int32' || from === 'uint8')) ||
    (to === 'float32' && (from === 'bfloat16' || from === 'float16'));
  if (exactCopy || (to === 'int64' && (from === 'int32' || from === 'uint8' || from === 'bool'))) {
    out.set(src as never);
    return out;
  }
  for (let i = 0; i < src.length; i++) out[i] = convertScalar(src[i]!, to);
  return out;
}

/** `t` as a dense tensor of `dtype` (t itself when it already is one). */
export function asDtype(t: JsTensor, dtype: DType): JsTensor {
  if (t.dtype === dtype) return t;
  return dense(dtype, t.shape.slice(), convertBuf(values(t), t.dtype, dtype));
}

/** Rounds a buffer of bfloat16 or float16 elements to their precision (others as they are). */
export function finish(t: JsTensor): JsTensor {
  if (t.dtype === 'bfloat16' || t.dtype === 'float16') {
    const d = t.data;
    for (let i = 0; i < d.length; i++) d[i] = convertScalar(d[i]!, t.dtype);
  }
  return t;
}
