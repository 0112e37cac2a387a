// Blending matrices W over positions (ex:vp-matched, app:experiments-details): the blended
// mean mu = W E(x0) (eq:blended-mean). Identity (per-position kernels), a full-band 1-D
// Gaussian with W_ii = 1 (text), a 2-D Gaussian over a grid, row-stochastic or additive
// (images, per channel), the Sudoku constraint graph, or any user matrix (dense or edges).
// Applied densely (one L x L matmul) or sparsely (gather + scatter-add) by size.
import { type DType, keep, type Tensor, tensor, zerosLike } from '../torch/index.js';

export interface Edge {
  i: number; // row (output position)
  j: number; // column (input position)
  w: number;
}

const DENSE_MAX_L = 512;
const DENSE_MIN_FILL = 0.05;

export class Blend {
  readonly isIdentity: boolean;
  readonly rows: Int32Array;
  readonly cols: Int32Array;
  readonly weights: Float64Array;
  readonly #cache = new Map<string, Tensor[]>();

  constructor(
    readonly name: string,
    readonly L: number,
    edges: Edge[] | null, // null: identity
  ) {
    if (!(Number.isInteger(L) && L > 0))
      throw new Error(`blend ${name}: length must be a positive integer, got ${L}`);
    this.isIdentity = edges === null;
    const es = edges ?? Array.from({ length: L }, (_, i) => ({ i, j: i, w: 1 }));
    for (const e of es) {
      if (
        !(
          Number.isInteger(e.i) &&
          Number.isInteger(e.j) &&
          e.i >= 0 &&
          e.j >= 0 &&
          e.i < L &&
          e.j < L
        )
      ) {
        throw new Error(`blend ${name}: edge (${e.i}, ${e.j}) outside positions 0..${L - 1}`);
      }
      if (!Number.isFinite(e.w))
        throw new Error(`blend ${name}: edge (${e.i}, ${e.j}) has weight ${e.w}`);
    }
    this.rows = Int32Array.from(es, (e) => e.i);
    this.cols = Int32Array.from(es, (e) => e.j);
    this.weights = Float64Array.from(es, (e) => e.w);
  }

  get nnz(): number {
    return this.weights.length;
  }
  /** Dense when small or not sparse enough to pay for gather/scatter. */
  get dense(): boolean {
    return this.L <= DENSE_MAX_L || this.nnz / (this.L * this.L) > DENSE_MIN_FILL;
  }

  /** W as a dense [L, L] Float64Array (row-major). */
  toDense(): Float64Array {
    const m = new Float64Array(this.L * this.L);
    for (let k = 0; k < this.nnz; k++)
      m[this.rows[k]! * this.L + this.cols[k]!]! += this.weights[k]!;
    return m;
  }

  #tensors(dtype: DType, device: string): Tensor[] {
    const key = `${dtype}@${device}`;
    let ts = this.#cache.get(key);
    if (!ts) {
      ts = this.dense
        ? [tensor(this.toDense(), [this.L, this.L], 'float64').to(dtype, device)]
        : [
            tensor(Array.from(this.rows), [this.nnz], 'int64').to('int64', device),
            tensor(Array.from(this.cols), [this.nnz], 'int64').to('int64', device),
            tensor(this.weights, [this.nnz, 1], 'float64').to(dtype, device),
          ];
      for (const t of ts) keep(t); // cached across scopes
      this.#cache.set(key, ts);
    }
    return ts;
  }

  /** (W x)_i = sum_j W_ij x_j over positions: x [B, L, c] -> [B, L, c] (differentiable in x). */
  apply(x: Tensor): Tensor {
    if (this.isIdentity) return x;
    const [B, L, c] = x.shape as [number, number, number];
    if (L !== this.L)
      throw new Error(`blend ${this.name}: built for length ${this.L}, applied to length ${L}`);
    const ts = this.#tensors(x.dtype, x.device);
    if (this.dense) return ts[0]!.matmul(x); // [L, L] @ [B, L, c]
    const [rows, cols, w] = ts as [Tensor, Tensor, Tensor];
    const contrib = x.indexSelect(1, cols).mul(w); // [B, nnz, c]
    const idx = rows.view([1, this.nnz, 1]).expand([B, this.nnz, c]);
    return zerosLike(x).scatterAdd(1, idx, contrib); // [B, L, c]
  }
}

export function identity(L: number): Blend {
  return new Blend('identity', L, null);
}

/** Full-band 1-D Gaussian, W_ij = exp(-(i - j)^2 / 2 sigma^2), W_ii = 1 (text; sigma 0 is I). */
export function gaussian1d(L: number, sigma: number): Blend {
  if (!(sigma >= 0)) throw new Error(`gaussian1d blend: sigma must be >= 0, got ${sigma}`);
  if (sigma === 0) return identity(L);
  const edges: Edge[] = [];
  for (let i = 0; i < L; i++) {
    for (let j = 0; j < L; j++) {
      const w = Math.exp(-((i - j) ** 2) / (2 * sigma * sigma));
      if (w > 1e-12) edges.push({ i, j, w });
    }
  }
  return new Blend(`gaussian1d(sigma=${sigma})`, L, edges);
}

/**
 * 2-D Gaussian over an H x W grid of sites, each with `channels` tokens (index site * C + ch),
 * blending within a channel: weights exp(-d^2 / 2 sigma^2), row-normalised ('row', images'
 * B^(sigma_B)) or not ('none', W_ii = 1).
 */
export function grid2d(
  height: number,
  width: number,
  sigma: number,
  normalize: 'row' | 'none',
  channels = 1,
): Blend {
  if (!(sigma >= 0)) throw new Error(`grid2d blend: sigma must be >= 0, got ${sigma}`);
  const N = height * width;
  if (sigma === 0) return identity(N * channels);
  const edges: Edge[] = [];
  for (let s = 0; s < N; s++) {
    const [r, c] = [Math.floor(s / width), s % width];
    const row: Edge[] = [];
    let total = 0;
    for (let s2 = 0; s2 < N; s2++) {
      const d2 = (r - Math.floor(s2 / width)) ** 2 + (c - (s2 % width)) ** 2;
      const w = Math.exp(-d2 / (2 * sigma * sigma));
      total += w;
      if (w > 1e-12) row.push({ i: s, j: s2, w });
    }
    for (const e of row) {
      for (let ch = 0; ch < channels; ch++) {
        edges.push({
          i: e.i * channels + ch,
          j: e.j * channels + ch,
          w: normalize === 'row' ? e.w / total : e.w,
        });
      }
    }
  }
  return new Blend(`grid2d(${height}x${width}, sigma=${sigma}, ${normalize})`, N * channels, edges);
}

/** The Sudoku constraint graph (app:sudoku): Gaussian in (row, col) distance on row/column/box peers, W_ii = 1. */
export function sudoku(sigma = 1.5): Blend {
  if (!(sigma > 0)) throw new Error(`sudoku blend: sigma must be > 0, got ${sigma}`);
  const edges: Edge[] = [];
  for (let i = 0; i < 81; i++) {
    const [ri, ci] = [Math.floor(i / 9), i % 9];
    const bi = 3 * Math.floor(ri / 3) + Math.floor(ci / 3);
    for (let j = 0; j < 81; j++) {
      const [rj, cj] = [Math.floor(j / 9), j % 9];
      const bj = 3 * Math.floor(rj / 3) + Math.floor(cj / 3);
      if (ri === rj || ci === cj || bi === bj) {
        edges.push({ i, j, w: Math.exp(-((ri - rj) ** 2 + (ci - cj) ** 2) / (2 * sigma * sigma)) });
      }
    }
  }
  return new Blend(`sudoku(sigma=${sigma})`, 81, edges);
}

/** A user matrix, row-major L x L. */
export function fromDense(L: number, values: ArrayLike<number>): Blend {
  if (values.length !== L * L)
    throw new Error(`blend matrix: ${values.length} values for a ${L} x ${L} matrix`);
  const edges: Edge[] = [];
  for (let k = 0; k < values.length; k++)
    if (values[k] !== 0) edges.push({ i: Math.floor(k / L), j: k % L, w: values[k]! });
  return new Blend('dense', L, edges);
}

/** A user edge list; repeated (i, j) pairs add up. */
export function fromEdges(L: number, edges: Edge[]): Blend {
  return new Blend('edges', L, edges);
}
