// The TypeScript backend's indexing ops (docs/design.md §3b): index_select, gather, scatter,
// scatter_add, advanced indexing t[i0, i1, ...] with int64 or bool tensors, nonzero, one_hot and
// embedding, with libtorch's shapes and its refusals of an index out of range.

import { convertScalar, type Operand } from './dtypes.js';
import {
  broadcastShapes,
  dense,
  dimOf,
  forEachIndex,
  JsTensor,
  numelOf,
  rowMajor,
  values,
} from './tensor-data.js';

function checkIndex(t: JsTensor, op: string): void {
  if (t.dtype !== 'int64' && t.dtype !== 'int32')
    throw new Error(`${op}(): Expected dtype int64 for index, got ${t.dtype}`);
}

/** An index value checked against `size` (negative ones counted from the end where allowed). */
function at(i: number, size: number, op: string, negative = false): number {
  const k = negative && i < 0 ? i + size : i;
  if (k < 0 || k >= size)
    throw new Error(`${op}: index ${i} is out of bounds for dimension with size ${size}`);
  return k;
}

export function indexSelect(t: JsTensor, dim: number, index: JsTensor): JsTensor {
  checkIndex(index, 'index_select');
  if (index.shape.length > 1) throw new Error('index_select(): Index is supposed to be a vector');
  const nd = t.shape.length;
  const d = dimOf(dim, nd, 'index_select');
  const idx = values(index);
  const src = values(t);
  const outer = numelOf(t.shape.slice(0, d));
  const size = nd === 0 ? 1 : t.shape[d]!;
  const inner = numelOf(t.shape.slice(d + 1));
  const shape = nd === 0 ? [] : t.shape.slice();
  if (nd > 0) shape[d] = idx.length;
  const out = dense(t.dtype, shape);
  const o = out.data;
  for (let a = 0; a < outer; a++)
    for (let j = 0; j < idx.length; j++) {
      const k = at(idx[j]!, size, 'index_select', true);
      const from = (a * size + k) * inner;
      o.set(src.subarray(from, from + inner) as never, (a * idx.length + j) * inner);
    }
  return out;
}

/** For each element of `index` (row-major), the storage offset in a dense `shape` along `d`. */
function gatherOffsets(shape: number[], d: number, index: JsTensor, op: string): Int32Array {
  const nd = shape.length;
  if (index.shape.length !== nd)
    throw new Error(
      `${op}(): Index tensor must have the same number of dimensions as input tensor`,
    );
  index.shape.forEach((s, k) => {
    if (k !== d && s > shape[k]!)
      throw new Error(
        `${op}(): Size does not match at dimension ${k} expected index [${index.shape.join(', ')}] to be smaller than self [${shape.join(', ')}] apart from dimension ${d}`,
      );
  });
  const strides = rowMajor(shape);
  const idx = values(index);
  const out = new Int32Array(idx.length);
  const ist = rowMajor(index.shape);
  for (let i = 0; i < idx.length; i++) {
    let off = 0;
    let rem = i;
    for (let k = 0; k < nd; k++) {
      const c = Math.floor(rem / ist[k]!);
      rem -= c * ist[k]!;
      off += (k === d ? at(idx[i]!, shape[d]!, op, false) : c) * strides[k]!;
    }
    out[i] = off;
  }
  return out;
}

export function gather(t: JsTensor, dim: number, index: JsTensor): JsTensor {
  checkIndex(index, 'gather');
  const d = dimOf(dim, t.shape.length, 'gather');
  const offs = gatherOffsets(t.shape, d, index, 'gather');
  const src = values(t);
  const out = dense(t.dtype, index.shape.slice());
  for (let i = 0; i < offs.length; i++) out.data[i] = src[offs[i]!]!;
  return out;
}

function scatterInto(
  t: JsTensor,
  dim: number,
  index: JsTensor,
  src: Operand,
  add: boolean,
  op: string,
): JsTensor {
  checkIndex(index, op);
  const d = dimOf(dim, t.shape.length, op);
  const offs = gatherOffsets(t.shape, d, index, op);
  const out = dense(t.dtype, t.shape.slice(), values(t).slice());
  const o = out.data;
  if (src instanceof JsTensor) {
    if (src.shape.length !== index.shape.length || index.shape.some((s, k) => s > src.shape[k]!))
      throw new Error(
        `${op}(): Expected index [${index.shape}] to be smaller than src [${src.shape}]`,
      );
    // src read at the index's positions
    const sv = values(src);
    const sst = rowMajor(src.shape);
    const ist = rowMajor(index.shape);
    for (let i = 0; i < offs.length; i++) {
      let rem = i;
      let s = 0;
      for (let k = 0; k < ist.length; k++) {
        const c = Math.floor(rem / ist[k]!);
        rem -= c * ist[k]!;
        s += c * sst[k]!;
      }
      const v = convertScalar(sv[s]!, t.dtype);
      o[offs[i]!] = add ? convertScalar(o[offs[i]!]! + v, t.dtype) : v;
    }
  } else {
    const v = convertScalar(Number(src), t.dtype);
    for (let i = 0; i < offs.length; i++) o[offs[i]!] = add ? o[offs[i]!]! + v : v;
  }
  return out;
}

export const scatter = (t: JsTensor, dim: number, index: JsTensor, src: Operand) =>
  scatterInto(t, dim, index, src, false, 'scatter');
export const scatterAdd = (t: JsTensor, dim: number, index: JsTensor, src: JsTensor) =>
  scatterInto(t, dim, index, src, true, 'scatter_add');

export function nonzero(t: JsTensor): JsTensor {
  const nd = t.shape.length;
  const found: number[] = [];
  const st = rowMajor(t.shape);
  const v = values(t);
  for (let i = 0; i < v.length; i++) {
    if (v[i] === 0) continue;
    let rem = i;
    for (let k = 0; k < nd; k++) {
      const c = Math.floor(rem / st[k]!);
      rem -= c * st[k]!;
      found.push(c);
    }
  }
  return dense('int64', [found.length / Math.max(nd, 1), nd], Float64Array.from(found));
}

/** t[i0, i1, ...]: int64 tensors broadcast together, bool tensors as their nonzero positions. */
export function index(t: JsTensor, indices: JsTensor[]): JsTensor {
  const ints: JsTensor[] = [];
  for (const i of indices) {
    if (i.dtype === 'bool' || i.dtype === 'uint8') {
      const nz = nonzero(i); // [n, k]
      const k = i.shape.length;
      const dimsAt = ints.length;
      i.shape.forEach((s, q) => {
        if (s !== t.shape[dimsAt + q])
          throw new Error(
            `The shape of the mask [${i.shape.join(', ')}] at index ${q} does not match the shape of the indexed tensor [${t.shape.join(', ')}] at index ${dimsAt + q}`,
          );
      });
      const nzv = values(nz);
      const n = nz.shape[0]!;
      for (let q = 0; q < k; q++) {
        const col = new Float64Array(n);
        for (let r = 0; r < n; r++) col[r] = nzv[r * k + q]!;
        ints.push(dense('int64', [n], col));
      }
    } else {
      checkIndex(i, 'index');
      ints.push(i);
    }
  }
  if (ints.length > t.shape.length)
    throw new Error(
      `too many indices for tensor of dimension ${t.shape.length} (got ${ints.length})`,
    );
  let bshape: number[] = [];
  for (const i of ints) bshape = broadcastShapes(bshape, i.shape, 'index');
  const reads = ints.map((i) => {
    const v = new Float64Array(numelOf(bshape));
    const bst = bshape.map((_, k) => {
      const q = k - (bshape.length - i.shape.length);
      return q < 0 || i.shape[q] === 1 ? 0 : i.strides[q]!;
    });
    forEachIndex(bshape, bst, i.offset, (a, n) => {
      v[n] = i.data[a]!;
    });
    return v;
  });
  const rest = t.shape.slice(ints.length);
  const inner = numelOf(rest);
  const src = values(t);
  const st = rowMajor(t.shape);
  const count = numelOf(bshape);
  const out = dense(t.dtype, [...bshape, ...rest]);
  for (let n = 0; n < count; n++) {
    let off = 0;
    for (let k = 0; k < ints.length; k++)
      off += at(reads[k]![n]!, t.shape[k]!, 'index', true) * st[k]!;
    out.data.set(src.subarray(off, off + inner) as never, n * inner);
  }
  return out;
}

export function oneHot(t: JsTensor, numClasses = -1): JsTensor {
  if (t.dtype !== 'int64')
    throw new Error('one_hot is only applicable to index tensor of type LongTensor.');
  const v = values(t);
  let c = numClasses;
  if (c === -1) c = (v as Float64Array).reduce((m, x) => Math.max(m, x + 1), 0);
  for (const x of v) {
    if (x < 0) throw new Error('Class values must be non-negative.');
    if (x >= c) throw new Error('Class values must be smaller than num_classes.');
  }
  const out = dense('int64', [...t.shape, c]);
  for (let i = 0; i < v.length; i++) out.data[i * c + v[i]!] = 1;
  return out;
}

export function embedding(weight: JsTensor, indices: JsTensor): JsTensor {
  checkIndex(indices, 'embedding');
  if (weight.shape.length !== 2) throw new Error("'weight' must be 2-D");
  const [K, d] = weight.shape as [number, number];
  const w = values(weight);
  const idx = values(indices);
  const out = dense(weight.dtype, [...indices.shape, d]);
  for (let i = 0; i < idx.length; i++) {
    const k = idx[i]!;
    if (k < 0 || k >= K) throw new Error('index out of range in self');
    out.data.set(w.subarray(k * d, (k + 1) * d) as never, i * d);
  }
  return out;
}
