// Blending matrices W over positions (ex:vp-matched, app:experiments-details): the blended
// mean mu = W E(x0) (eq:blended-mean). Identity (per-position kernels), a full-band 1-D
// Gaussian with W_ii = 1 (text), a 2-D Gaussian over a grid, row-stochastic or additive
// (images, per channel), the Sudoku constraint graph, or any user matrix (dense or edges).
// Applied densely (one L x L matmul) or sparsely (gather + scatter-add) by size; a W that
// factorises over a full grid (the 2-D Gaussian: W = K_rows (x) K_cols per channel) is applied
// as two small products, O(HW (H + W)) a channel instead of O((HW)^2).
import { type DType, keep, type Tensor, tensor, zerosLike } from '../torch/index.js';

export interface Edge {
  i: number; // row (output position)
  j: number; // column (input position)
  w: number;
}

const DENSE_MAX_L = 512;
const DENSE_MIN_FILL = 0.05;

/**
 * A W over a full height x width grid of sites, `channels` tokens a site (token index
 * (row * width + col) * channels + channel), that is the Kronecker product of a row kernel and
 * a column kernel within each channel: W[(r, c, ch), (r', c', ch)] = rows[r, r'] cols[c, c'].
 */
export interface GridFactors {
  height: number;
  width: number;
  channels: number;
  rows: Float64Array; // [H, H] row-major
  cols: Float64Array; // [W, W] row-major
}

/** The edges of a factorised W (its nonzero entries). */
function factorEdges(f: GridFactors): Edge[] {
  const { height: H, width: Wd, channels: C } = f;
  const edges: Edge[] = [];
  for (let r = 0; r < H; r++)
    for (let c = 0; c < Wd; c++)
      for (let r2 = 0; r2 < H; r2++)
        for (let c2 = 0; c2 < Wd; c2++) {
          const w = f.rows[r * H + r2]! * f.cols[c * Wd + c2]!;
          if (w === 0) continue;
          for (let ch = 0; ch < C; ch++)
            edges.push({ i: (r * Wd + c) * C + ch, j: (r2 * Wd + c2) * C + ch, w });
        }
  return edges;
}

export class Blend {
  readonly isIdentity: boolean;
  readonly #cache = new Map<string, Tensor[]>();
  #edges: { rows: Int32Array; cols: Int32Array; weights: Float64Array } | undefined;

  constructor(
    readonly name: string,
    readonly L: number,
    edges: Edge[] | null, // null: identity (or the factors' product)
    readonly factors?: GridFactors,
  ) {
    if (!(Number.isInteger(L) && L > 0))
      throw new Error(`blend ${name}: length must be a positive integer, got ${L}`);
    this.isIdentity = edges === null && !factors;
    if (factors) {
      const { height: H, width: Wd, channels: C } = factors;
      if (H * Wd * C !== L || factors.rows.length !== H * H || factors.cols.length !== Wd * Wd)
        throw new Error(
          `blend ${name}: factors for a ${H} x ${Wd} x ${C} grid do not fit length ${L}`,
        );
      if (![...factors.rows, ...factors.cols].every(Number.isFinite))
        throw new Error(`blend ${name}: a factor has a non-finite weight`);
      return;
    }
    this.#setEdges(edges ?? Array.from({ length: L }, (_, i) => ({ i, j: i, w: 1 })));
  }

  #setEdges(es: Edge[]): void {
    const { L, name } = this;
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
    this.#edges = {
      rows: Int32Array.from(es, (e) => e.i),
      cols: Int32Array.from(es, (e) => e.j),
      weights: Float64Array.from(es, (e) => e.w),
    };
  }

  /** The nonzero entries (i, j, w); built on first use for a factorised W. */
  get #list(): { rows: Int32Array; cols: Int32Array; weights: Float64Array } {
    if (!this.#edges) this.#setEdges(factorEdges(this.factors!));
    return this.#edges!;
  }
  get rows(): Int32Array {
    return this.#list.rows;
  }
  get cols(): Int32Array {
    return this.#list.cols;
  }
  get weights(): Float64Array {
    return this.#list.weights;
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
      const f = this.factors;
      ts = f
        ? [
            tensor(f.rows, [f.height, f.height], 'float64').to(dtype, device),
            tensor(f.cols, [f.width, f.width], 'float64').to(dtype, device),
          ]
        : this.dense
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
    const f = this.factors;
    if (f) {
      const [H, Wd, k] = [f.height, f.width, f.channels * c];
      const byRow = ts[0]!.matmul(x.reshape([B, H, Wd * k])); // [H, H] @ [B, H, W k]
      const byCol = ts[1]!.matmul(byRow.reshape([B * H, Wd, k])); // [W, W] @ [B H, W, k]
      return byCol.reshape([B, L, c]);
    }
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

/**
 * Full-band 1-D Gaussian over positions (text, app:text8's "1D Gaussian convolution"; sigma 0 is
 * I): W_ij = exp(-(i - j)^2 / 2 sigma^2) with W_ii = 1 ('none', as the authors' additive kernel:
 * rows sum to about sigma sqrt(2 pi)), or each row divided by its sum ('row': row-stochastic, a
 * weighted average of the neighbours' anchors, so mu keeps the anchors' scale).
 */
export function gaussian1d(L: number, sigma: number, normalize: 'none' | 'row' = 'none'): Blend {
  if (!(sigma >= 0)) throw new Error(`gaussian1d blend: sigma must be >= 0, got ${sigma}`);
  if (sigma === 0) return identity(L);
  const edges: Edge[] = [];
  for (let i = 0; i < L; i++) {
    const row: Edge[] = [];
    for (let j = 0; j < L; j++) {
      const w = Math.exp(-((i - j) ** 2) / (2 * sigma * sigma));
      if (w > 1e-12) row.push({ i, j, w });
    }
    const total = normalize === 'row' ? row.reduce((a, e) => a + e.w, 0) : 1;
    for (const e of row) edges.push({ ...e, w: e.w / total });
  }
  const name =
    normalize === 'row' ? `gaussian1d(sigma=${sigma}, row)` : `gaussian1d(sigma=${sigma})`;
  return new Blend(name, L, edges);
}

/** The 1-D Gaussian kernel exp(-(i - j)^2 / 2 sigma^2) over n sites, [n, n] row-major. */
function gaussKernel(n: number, sigma: number): Float64Array {
  const k = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) k[i * n + j] = Math.exp(-((i - j) ** 2) / (2 * sigma * sigma));
  return k;
}

/** Each row of an [n, n] kernel divided by its sum. */
function rowNormalised(k: Float64Array, n: number): Float64Array {
  const out = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let total = 0;
    for (let j = 0; j < n; j++) total += k[i * n + j]!;
    for (let j = 0; j < n; j++) out[i * n + j] = k[i * n + j]! / total;
  }
  return out;
}

/**
 * 2-D Gaussian over an H x W grid of sites, each with `channels` tokens (index site * C + ch),
 * blending within a channel: weights exp(-d^2 / 2 sigma^2), row-normalised ('row', images'
 * B^(sigma_B)) or not ('none', W_ii = 1). Both factorise, exp(-(dr^2 + dc^2) / 2 sigma^2) =
 * exp(-dr^2 / 2 sigma^2) exp(-dc^2 / 2 sigma^2), and a row's total is the product of the two
 * kernels' row totals, so W = K_rows (x) K_cols (GridFactors).
 */
export function grid2d(
  height: number,
  width: number,
  sigma: number,
  normalize: 'row' | 'none',
  channels = 1,
): Blend {
  if (!(sigma >= 0)) throw new Error(`grid2d blend: sigma must be >= 0, got ${sigma}`);
  if (sigma === 0) return identity(height * width * channels);
  const [kr, kc] = [gaussKernel(height, sigma), gaussKernel(width, sigma)];
  const factors: GridFactors =
    normalize === 'row'
      ? { height, width, channels, rows: rowNormalised(kr, height), cols: rowNormalised(kc, width) }
      : { height, width, channels, rows: kr, cols: kc };
  return new Blend(
    `grid2d(${height}x${width}, sigma=${sigma}, ${normalize})`,
    height * width * channels,
    null,
    factors,
  );
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
