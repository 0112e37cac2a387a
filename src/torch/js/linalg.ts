// The TypeScript backend's linear algebra (docs/design.md §3b): matmul with libtorch's rules (dot,
// matrix-vector, batched and broadcast), mm, bmm, linear, einsum (any equation without repeated
// indices within an operand, by summing over the indices left out) and linalg_eigh (cyclic
// Jacobi in float64). Products accumulate in float64 and are stored once at the operands' dtype.
// The matrix product is the forward pass's cost: gemm.ts holds its kernel.
import type { DType } from '../types.js';
import { finish, isFloating } from './dtypes.js';
import { gemm } from './gemm.js';
import { expand, reshape, unsqueeze } from './layout.js';
import {
  broadcastShapes,
  dense,
  denseUnset,
  forEachIndex,
  type JsTensor,
  numelOf,
  rowMajor,
  values,
} from './tensor-data.js';
import { wasmGemmBatched } from './wasm-gemm.js';

function sameDtype(a: JsTensor, b: JsTensor, op: string): DType {
  if (a.dtype !== b.dtype)
    throw new Error(
      `${op}: expected both operands to have the same dtype, but got ${a.dtype} != ${b.dtype}`,
    );
  if (a.dtype === 'bool') throw new Error(`${op}: not implemented for 'Bool'`);
  return a.dtype;
}

/** The storage offset of each matrix of `t` [...batch, R, C], the batch walked row-major. */
function batchOffsets(t: JsTensor, batch: readonly number[]): number[] {
  const offsets: number[] = [];
  forEachIndex(batch, t.strides.slice(0, batch.length), t.offset, (at) => {
    offsets.push(at);
  });
  return offsets;
}

/** a [..., M, K] x b [..., K, N] with the leading dims broadcast. */
function batched(a: JsTensor, b: JsTensor, op: string): JsTensor {
  const dtype = sameDtype(a, b, op);
  const [M, K] = a.shape.slice(-2) as [number, number];
  const [K2, N] = b.shape.slice(-2) as [number, number];
  if (K !== K2)
    throw new Error(`${op}: mat1 and mat2 shapes cannot be multiplied (${M}x${K} and ${K2}x${N})`);
  const batch = broadcastShapes(a.shape.slice(0, -2), b.shape.slice(0, -2), op);
  const ea = expand(a, [...batch, M, K]);
  const eb = expand(b, [...batch, K, N]);
  const count = numelOf(batch);
  const out = denseUnset(dtype, [...batch, M, N]); // every product written
  if (dtype === 'float32' && K >= 8 && count > 0) {
    // float32: the operands read through their strides by the WebAssembly kernel
    const batchOf = (t: JsTensor) => ({
      data: t.data as Float32Array,
      offsets: batchOffsets(t, batch),
      rs: t.strides.at(-2)!,
      cs: t.strides.at(-1)!,
    });
    if (wasmGemmBatched(batchOf(ea), batchOf(eb), out.data as Float32Array, M, K, N)) return out;
  }
  const A = values(ea);
  const B = values(eb);
  for (let q = 0; q < count; q++)
    gemm(A, q * M * K, B, q * K * N, out.data, q * M * N, M, K, N, false);
  return finish(out);
}

export function matmul(a: JsTensor, b: JsTensor): JsTensor {
  const da = a.shape.length;
  const db = b.shape.length;
  if (da === 0 || db === 0)
    throw new Error(
      `both arguments to matmul need to be at least 1D, but they are ${da}D and ${db}D`,
    );
  if (da === 1 && db === 1) {
    if (a.shape[0] !== b.shape[0])
      throw new Error(
        `inconsistent tensor size, expected tensor [${a.shape[0]}] and src [${b.shape[0]}] to have the same number of elements, but got ${a.shape[0]} and ${b.shape[0]} elements respectively`,
      );
    return reshape(batched(unsqueeze(a, 0), unsqueeze(b, 1), 'dot'), []);
  }
  const a2 = da === 1 ? unsqueeze(a, 0) : a;
  const b2 = db === 1 ? unsqueeze(b, 1) : b;
  const r = batched(a2, b2, 'matmul');
  const shape = r.shape.slice();
  if (db === 1) shape.splice(-1, 1);
  if (da === 1) shape.splice(shape.length - (db === 1 ? 1 : 2), 1);
  return shape.length === r.shape.length ? r : reshape(r, shape);
}

export function mm(a: JsTensor, b: JsTensor): JsTensor {
  if (a.shape.length !== 2) throw new Error('self must be a matrix');
  if (b.shape.length !== 2) throw new Error('mat2 must be a matrix');
  return batched(a, b, 'mm');
}

export function bmm(a: JsTensor, b: JsTensor): JsTensor {
  if (a.shape.length !== 3) throw new Error('batch1 must be a 3D tensor');
  if (b.shape.length !== 3) throw new Error('batch2 must be a 3D tensor');
  if (a.shape[0] !== b.shape[0])
    throw new Error('batch1 and batch2 must have same number of batches');
  return batched(a, b, 'bmm');
}

/** x [..., in] weight [out, in] bias [out] -> [..., out]: x W^T + b. */
export function linear(x: JsTensor, weight: JsTensor, bias?: JsTensor | null): JsTensor {
  const dtype = sameDtype(x, weight, 'linear');
  const inF = x.shape.at(-1)!;
  if (weight.shape.length !== 2 || weight.shape[1] !== inF)
    throw new Error(
      `linear: mat1 and mat2 shapes cannot be multiplied (${numelOf(x.shape.slice(0, -1))}x${inF} and ${weight.shape[1]}x${weight.shape[0]})`,
    );
  const outF = weight.shape[0]!;
  const M = numelOf(x.shape.slice(0, -1));
  if (bias && (bias.shape.length !== 1 || bias.shape[0] !== outF))
    throw new Error(`linear: bias of shape [${bias.shape}] for ${outF} outputs`);
  const out = denseUnset(dtype, [...x.shape.slice(0, -1), outF]); // every product written
  gemm(values(x), 0, values(weight), 0, out.data, 0, M, inF, outF, true, bias && values(bias));
  return finish(out);
}

/** Upper-case letters stand for the dims of '...' (the equation's own are lower-case). */
const ELLIPSIS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * An equation's operand subscripts with '...' spelled out as fresh letters (as many as the
 * operand has extra dims), and its output's (given, or the letters used once, sorted, after the
 * ellipsis's), as torch.einsum reads them.
 */
function subscripts(eq: string, ts: JsTensor[]): { subs: string[]; rhs: string } {
  const [lhs, given] = eq.split('->') as [string, string | undefined];
  const inputs = lhs.split(',');
  if (inputs.length !== ts.length)
    throw new Error(`einsum(): more operands were provided than specified in the equation`);
  let ellDims = 0;
  const subs = inputs.map((s, k) => {
    if (!s.includes('...')) return s;
    const n = ts[k]!.shape.length - (s.length - 3);
    ellDims = Math.max(ellDims, n);
    return s.replace('...', ELLIPSIS.slice(ellDims - n, ellDims));
  });
  if (given !== undefined) return { subs, rhs: given.replace('...', ELLIPSIS.slice(0, ellDims)) };
  const counts = new Map<string, number>();
  for (const s of subs) for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  const once = [...counts].filter(([c, n]) => n === 1 && !ELLIPSIS.includes(c)).map(([c]) => c);
  return { subs, rhs: ELLIPSIS.slice(0, ellDims) + once.sort().join('') };
}

/** Each letter's size, checked against every operand's dims (1 broadcasts). */
function letterSizes(subs: string[], ts: JsTensor[]): Map<string, number> {
  const size = new Map<string, number>();
  subs.forEach((s, k) => {
    const t = ts[k]!;
    if (s.length !== t.shape.length)
      throw new Error(
        `einsum(): the number of subscripts in the equation (${s.length}) does not match the number of dimensions (${t.shape.length}) for operand ${k}`,
      );
    if (new Set(s).size !== s.length)
      throw new Error('einsum(): repeated subscripts within an operand are not supported here');
    [...s].forEach((c, d) => {
      const n = t.shape[d]!;
      const have = size.get(c);
      if (have !== undefined && have !== n && have !== 1 && n !== 1)
        throw new Error(
          `einsum(): operands do not broadcast with remapped shapes (original->remapped)`,
        );
      size.set(c, Math.max(have ?? 1, n));
    });
  });
  return size;
}

/** einsum over explicit equations ('ij,jk->ik'; '...' for leading dims). */
export function einsum(equation: string, ts: JsTensor[]): JsTensor {
  const dtype = ts[0]!.dtype;
  for (const t of ts) sameDtype(ts[0]!, t, 'einsum');
  const { subs, rhs } = subscripts(equation.replace(/\s+/g, ''), ts);
  const size = letterSizes(subs, ts);
  const letters = [...rhs, ...[...size.keys()].filter((c) => !rhs.includes(c))];
  const outShape = [...rhs].map((c) => size.get(c)!);
  const all = letters.map((c) => size.get(c)!); // the output's dims, then the summed ones
  const vals = ts.map((t) => values(t));
  const strides = subs.map((s, k) => {
    const st = rowMajor(ts[k]!.shape);
    return letters.map((c) => {
      const d = s.indexOf(c);
      return d < 0 || ts[k]!.shape[d] === 1 ? 0 : st[d]!;
    });
  });
  const nOut = numelOf(outShape);
  const nSum = numelOf(all.slice(rhs.length));
  const out = dense(dtype, outShape);
  const idx = new Array<number>(all.length).fill(0);
  for (let o = 0; o < nOut; o++) {
    let acc = 0;
    for (let s = 0; s < nSum; s++) {
      let rem = o * nSum + s;
      for (let d = all.length - 1; d >= 0; d--) {
        idx[d] = rem % all[d]!;
        rem = Math.floor(rem / all[d]!);
      }
      let p = 1;
      for (let k = 0; k < ts.length; k++) {
        let off = 0;
        for (let d = 0; d < all.length; d++) off += idx[d]! * strides[k]![d]!;
        p *= vals[k]![off]!;
      }
      acc += p;
    }
    out.data[o] = acc;
  }
  return finish(out);
}

/** Eigenvalues (ascending) and eigenvectors (columns) of symmetric a [..., n, n]. */
export function eigh(a: JsTensor): [JsTensor, JsTensor] {
  if (!isFloating(a.dtype))
    throw new Error(`linalg.eigh: Expected a floating point tensor, got ${a.dtype}`);
  const n = a.shape.at(-1)!;
  if (a.shape.length < 2 || a.shape.at(-2) !== n)
    throw new Error('linalg.eigh: A must be batches of square matrices');
  const batch = a.shape.slice(0, -2);
  const count = numelOf(batch);
  const src = values(a);
  const lam = dense(a.dtype, [...batch, n]);
  const vec = dense(a.dtype, [...batch, n, n]);
  for (let q = 0; q < count; q++) {
    // the lower triangle, as libtorch reads it (UPLO 'L')
    const A = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) {
        const v = src[q * n * n + i * n + j]!;
        A[i * n + j] = v;
        A[j * n + i] = v;
      }
    const V = new Float64Array(n * n);
    for (let i = 0; i < n; i++) V[i * n + i] = 1;
    jacobi(A, V, n);
    const order = [...Array(n).keys()].sort((x, y) => A[x * n + x]! - A[y * n + y]!);
    order.forEach((k, c) => {
      lam.data[q * n + c] = A[k * n + k]!;
      for (let r = 0; r < n; r++) vec.data[q * n * n + r * n + c] = V[r * n + k]!;
    });
  }
  return [finish(lam), finish(vec)];
}

/** Cyclic Jacobi rotations until the off-diagonal is negligible; V accumulates them. */
function jacobi(A: Float64Array, V: Float64Array, n: number): void {
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < n; i++) {
      diag += A[i * n + i]! ** 2;
      for (let j = i + 1; j < n; j++) off += A[i * n + j]! ** 2;
    }
    if (off <= 1e-30 * Math.max(diag, 1e-300)) return;
    for (let p = 0; p < n; p++)
      for (let r = p + 1; r < n; r++) {
        const apr = A[p * n + r]!;
        if (apr === 0) continue;
        const theta = (A[r * n + r]! - A[p * n + p]!) / (2 * apr);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p]!;
          const akr = A[k * n + r]!;
          A[k * n + p] = c * akp - s * akr;
          A[k * n + r] = s * akp + c * akr;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k]!;
          const ark = A[r * n + k]!;
          A[p * n + k] = c * apk - s * ark;
          A[r * n + k] = s * apk + c * ark;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p]!;
          const vkr = V[k * n + r]!;
          V[k * n + p] = c * vkp - s * vkr;
          V[k * n + r] = s * vkp + c * vkr;
        }
      }
  }
}
