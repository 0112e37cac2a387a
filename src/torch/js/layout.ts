// The TypeScript backend's shape ops (docs/design.md §3b): views that share their base's elements
// as libtorch's do (view, reshape where it can, permute, transpose, squeeze, unsqueeze, expand,
// narrow, select, split, chunk) and the ops that copy (contiguous, clone, repeat, flip, cat,
// stack, flatten and reshape where a view cannot be had).
import type { DType } from '../types.js';
import { newBuf } from './buffers.js';
import { convertBuf as convert, promoteTypes as promote } from './dtypes.js';
import {
  cloneDense,
  dense,
  dimOf,
  isContiguous,
  type JsTensor,
  numelOf,
  rowMajor,
  values,
  view,
} from './tensor-data.js';

/** `shape` with one -1 inferred from `numel` (throws as libtorch does on a mismatch). */
export function inferShape(shape: number[], numel: number, op: string): number[] {
  const free = shape.indexOf(-1);
  const known = shape.reduce((p, s, i) => (i === free ? p : p * s), 1);
  const out = shape.slice();
  if (free >= 0) {
    if (shape.indexOf(-1, free + 1) >= 0)
      throw new Error(`${op}: only one dimension can be inferred`);
    if (known === 0 || numel % known !== 0)
      throw new Error(`${op}: shape '[${shape}]' is invalid for input of size ${numel}`);
    out[free] = numel / known;
  } else if (known !== numel)
    throw new Error(`${op}: shape '[${shape}]' is invalid for input of size ${numel}`);
  return out;
}

/** A view of contiguous `t` with `shape` (its own strides), or null when t is not contiguous. */
function viewAs(t: JsTensor, shape: number[]): JsTensor | null {
  if (!isContiguous(t)) return null;
  return view(t, shape, rowMajor(shape), t.offset);
}

export function reshape(t: JsTensor, shape: number[]): JsTensor {
  const s = inferShape(shape, t.numel, 'reshape');
  return viewAs(t, s) ?? dense(t.dtype, s, values(t));
}

export function viewOp(t: JsTensor, shape: number[]): JsTensor {
  const s = inferShape(shape, t.numel, 'view');
  const v = viewAs(t, s);
  if (!v)
    throw new Error(
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    );
  return v;
}

export function permute(t: JsTensor, dims: number[]): JsTensor {
  const nd = t.shape.length;
  if (dims.length !== nd)
    throw new Error(
      `permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = ${nd} is not equal to len(dims) = ${dims.length}`,
    );
  const d = dims.map((x) => dimOf(x, nd, 'permute'));
  if (new Set(d).size !== nd) throw new Error('permute: repeated dim');
  return view(
    t,
    d.map((i) => t.shape[i]!),
    d.map((i) => t.strides[i]!),
    t.offset,
  );
}

export function transpose(t: JsTensor, d0: number, d1: number): JsTensor {
  const nd = t.shape.length;
  if (nd === 0) return t;
  const a = dimOf(d0, nd, 'transpose');
  const b = dimOf(d1, nd, 'transpose');
  const order = [...t.shape.keys()];
  order[a] = b;
  order[b] = a;
  return permute(t, order);
}

export function squeeze(t: JsTensor, dim?: number): JsTensor {
  const nd = t.shape.length;
  const keep = (i: number) =>
    dim === undefined ? t.shape[i] !== 1 : i !== dimOf(dim, nd, 'squeeze') || t.shape[i] !== 1;
  const idx = [...t.shape.keys()].filter(keep);
  return view(
    t,
    idx.map((i) => t.shape[i]!),
    idx.map((i) => t.strides[i]!),
    t.offset,
  );
}

export function unsqueeze(t: JsTensor, dim: number): JsTensor {
  const nd = t.shape.length;
  const d = dimOf(dim, nd + 1, 'unsqueeze');
  const shape = t.shape.slice();
  const strides = t.strides.slice();
  const stride = d < nd ? shape[d]! * strides[d]! : 1;
  shape.splice(d, 0, 1);
  strides.splice(d, 0, stride);
  return view(t, shape, strides, t.offset);
}

export function expand(t: JsTensor, shape: number[]): JsTensor {
  const nd = t.shape.length;
  if (shape.length < nd)
    throw new Error(
      `expand: the number of sizes provided (${shape.length}) must be greater or equal to the number of dimensions in the tensor (${nd})`,
    );
  const off = shape.length - nd;
  const outShape: number[] = [];
  const strides: number[] = [];
  for (let i = 0; i < shape.length; i++) {
    const want = shape[i]!;
    if (i < off) {
      if (want < 0)
        throw new Error('expand: -1 is not allowed in a leading, non-existing dimension');
      outShape.push(want);
      strides.push(0);
      continue;
    }
    const have = t.shape[i - off]!;
    const size = want === -1 ? have : want;
    if (have !== size && have !== 1)
      throw new Error(
        `The expanded size of the tensor (${size}) must match the existing size (${have}) at non-singleton dimension ${i}.  Target sizes: [${shape.join(', ')}].  Tensor sizes: [${t.shape.join(', ')}]`,
      );
    outShape.push(size);
    strides.push(have === size ? t.strides[i - off]! : 0);
  }
  return view(t, outShape, strides, t.offset);
}

export function flatten(t: JsTensor, startDim = 0, endDim = -1): JsTensor {
  const nd = t.shape.length;
  if (nd === 0) return reshape(t, [1]);
  const a = dimOf(startDim, nd, 'flatten');
  const b = dimOf(endDim, nd, 'flatten');
  if (a > b) throw new Error('flatten() has invalid args: start_dim cannot come after end_dim');
  const shape = [...t.shape.slice(0, a), numelOf(t.shape.slice(a, b + 1)), ...t.shape.slice(b + 1)];
  return reshape(t, shape);
}

export function narrow(t: JsTensor, dim: number, start: number, length: number): JsTensor {
  const d = dimOf(dim, t.shape.length, 'narrow');
  const size = t.shape[d]!;
  const s = start < 0 ? start + size : start;
  if (s < 0 || length < 0 || s + length > size)
    throw new Error(`start (${start}) + length (${length}) exceeds dimension size (${size}).`);
  const shape = t.shape.slice();
  shape[d] = length;
  return view(t, shape, t.strides.slice(), t.offset + s * t.strides[d]!);
}

export function select(t: JsTensor, dim: number, index: number): JsTensor {
  const nd = t.shape.length;
  if (nd === 0) throw new Error('select() cannot be applied to a 0-dim tensor.');
  const d = dimOf(dim, nd, 'select');
  const size = t.shape[d]!;
  const i = index < 0 ? index + size : index;
  if (i < 0 || i >= size)
    throw new Error(
      `select(): index ${index} out of range for tensor of size [${t.shape.join(', ')}] at dimension ${d}`,
    );
  const shape = t.shape.filter((_, k) => k !== d);
  const strides = t.strides.filter((_, k) => k !== d);
  return view(t, shape, strides, t.offset + i * t.strides[d]!);
}

export function split(t: JsTensor, sizes: number | number[], dim: number): JsTensor[] {
  const d = dimOf(dim, t.shape.length, 'split');
  const n = t.shape[d]!;
  let parts: number[];
  if (typeof sizes === 'number') {
    if (sizes <= 0 && n > 0) throw new Error('split expects split_size be non-negative');
    parts = [];
    for (let at = 0; at < n; at += sizes) parts.push(Math.min(sizes, n - at));
    if (parts.length === 0) parts = [0];
  } else {
    if (sizes.reduce((a, b) => a + b, 0) !== n)
      throw new Error(
        `split_with_sizes expects split_sizes to sum exactly to ${n} (input tensor's size at dimension ${d}), but got split_sizes=[${sizes.join(', ')}]`,
      );
    parts = sizes;
  }
  let at = 0;
  return parts.map((p) => {
    const v = narrow(t, d, at, p);
    at += p;
    return v;
  });
}

export function chunk(t: JsTensor, chunks: number, dim: number): JsTensor[] {
  if (chunks <= 0) throw new Error('chunk expects `chunks` to be greater than 0');
  const d = dimOf(dim, t.shape.length, 'chunk');
  const size = Math.ceil(t.shape[d]! / chunks);
  return split(t, Math.max(size, 1), d);
}

export const contiguous = (t: JsTensor): JsTensor => (isContiguous(t) ? t : cloneDense(t));

export const clone = (t: JsTensor): JsTensor => cloneDense(t);

export function repeat(t: JsTensor, repeats: number[]): JsTensor {
  if (repeats.length < t.shape.length)
    throw new Error(
      'Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor',
    );
  const pad = repeats.length - t.shape.length;
  const base = [...new Array<number>(pad).fill(1), ...t.shape];
  const src = reshape(t, base);
  // expand to [r0, s0, r1, s1, ...] then reshape to [r0 s0, r1 s1, ...]
  const inter: number[] = [];
  const strides: number[] = [];
  base.forEach((s, i) => {
    inter.push(repeats[i]!, s);
    strides.push(0, src.strides[i]!);
  });
  const e = view(src, inter, strides, src.offset);
  return dense(
    t.dtype,
    base.map((s, i) => s * repeats[i]!),
    values(e),
  );
}

export function flip(t: JsTensor, dims: number[]): JsTensor {
  const nd = t.shape.length;
  const strides = t.strides.slice();
  let offset = t.offset;
  for (const x of new Set(dims.map((d) => dimOf(d, nd, 'flip')))) {
    offset += (t.shape[x]! - 1) * strides[x]!;
    strides[x] = -strides[x]!;
  }
  return dense(t.dtype, t.shape.slice(), values(view(t, t.shape.slice(), strides, offset)));
}

export function cat(ts: JsTensor[], dim: number): JsTensor {
  if (ts.length === 0) throw new Error('torch.cat(): expected a non-empty list of Tensors');
  // libtorch skips 1-D empty tensors in a cat of higher-dimensional ones
  const parts = ts.filter((t) => !(t.shape.length === 1 && t.shape[0] === 0));
  if (parts.length === 0) return ts[0]!;
  const first = parts[0]!;
  const nd = first.shape.length;
  if (nd === 0) throw new Error('zero-dimensional tensor (at position 0) cannot be concatenated');
  const d = dimOf(dim, nd, 'cat');
  let dtype: DType = first.dtype;
  for (const t of parts) {
    if (t.shape.length !== nd)
      throw new Error(
        `Tensors must have same number of dimensions: got ${nd} and ${t.shape.length}`,
      );
    t.shape.forEach((s, i) => {
      if (i !== d && s !== first.shape[i])
        throw new Error(
          `Sizes of tensors must match except in dimension ${d}. Expected size ${first.shape[i]} but got size ${s} for tensor number ${parts.indexOf(t)} in the list.`,
        );
    });
    dtype = promote(dtype, t.dtype);
  }
  const shape = first.shape.slice();
  shape[d] = parts.reduce((a, t) => a + t.shape[d]!, 0);
  const out = newBuf(dtype, numelOf(shape));
  const outer = numelOf(shape.slice(0, d));
  const inner = numelOf(shape.slice(d + 1));
  const row = shape[d]! * inner;
  let at = 0;
  for (const t of parts) {
    const v = convert(values(t), t.dtype, dtype);
    const w = t.shape[d]! * inner;
    for (let o = 0; o < outer; o++) out.set(v.subarray(o * w, (o + 1) * w) as never, o * row + at);
    at += w;
  }
  return dense(dtype, shape, out);
}

export function stack(ts: JsTensor[], dim: number): JsTensor {
  if (ts.length === 0) throw new Error('stack expects a non-empty TensorList');
  const nd = ts[0]!.shape.length;
  const d = dimOf(dim, nd + 1, 'stack');
  for (const t of ts)
    if (t.shape.length !== nd || t.shape.some((s, i) => s !== ts[0]!.shape[i]))
      throw new Error(
        `stack expects each tensor to be equal size, but got [${ts[0]!.shape.join(', ')}] at entry 0 and [${t.shape.join(', ')}] at entry ${ts.indexOf(t)}`,
      );
  return cat(
    ts.map((t) => unsqueeze(t, d)),
    d,
  );
}
