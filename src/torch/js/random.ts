// The TypeScript backend's seeded draws (docs/design.md §4): libtorch's recipes on top of its
// CPU generator's engine (mersenne-twister.ts): rand in float32 from 24 bits of one draw and in float64 from
// 53 bits of two, randn by Box-Muller on those uniforms (in blocks of 16 for 16 elements or more,
// libtorch's normal_fill), randint, randperm, bernoulli, dropout and multinomial (with
// replacement by the inverse of the float64 cumulative sum, without by an exponential race).
// The same seed so gives nearly the same uniforms and normals as libtorch, but bit equality is
// not promised; categorical draws differ. The state is a uint8 tensor of this backend's own
// layout (a run checkpointed by libtorch resumes on libtorch).
import type { DType } from '../types.js';
import { checkFloat, finish, isFloating } from './dtypes.js';
import type { MersenneTwister } from './mersenne-twister.js';
import { dense, type JsTensor, numelOf, values } from './tensor-data.js';

const uniform = (g: MersenneTwister, dtype: DType) =>
  dtype === 'float64' ? g.double() : g.float();

export function rand(shape: number[], g: MersenneTwister, dtype: DType = 'float32'): JsTensor {
  checkFloat(dtype, 'rand');
  const out = dense(dtype, shape.slice());
  const o = out.data;
  for (let i = 0; i < o.length; i++) o[i] = uniform(g, dtype);
  return finish(out);
}

/** Box-Muller on 16 uniforms in place: 8 pairs (u[j], u[j + 8]) -> 16 normals. */
function normal16(d: Float64Array, at: number) {
  for (let j = 0; j < 8; j++) {
    const u1 = 1 - d[at + j]!;
    const u2 = d[at + j + 8]!;
    const r = Math.sqrt(-2 * Math.log(u1));
    const theta = 2 * Math.PI * u2;
    d[at + j] = r * Math.cos(theta);
    d[at + j + 8] = r * Math.sin(theta);
  }
}

/** One normal by the scalar Box-Muller (libtorch's normal_distribution<double>), caching its pair. */
function scalarNormal(g: MersenneTwister): number {
  if (g.nextNormal !== null) {
    const v = g.nextNormal;
    g.nextNormal = null;
    return v;
  }
  const u1 = g.double();
  const u2 = g.double();
  const r = Math.sqrt(-2 * Math.log1p(-u2));
  const theta = 2 * Math.PI * u1;
  g.nextNormal = r * Math.sin(theta);
  return r * Math.cos(theta);
}

export function randn(shape: number[], g: MersenneTwister, dtype: DType = 'float32'): JsTensor {
  checkFloat(dtype, 'randn');
  const n = numelOf(shape);
  const d = new Float64Array(n);
  if (n >= 16) {
    for (let i = 0; i < n; i++) d[i] = uniform(g, dtype);
    for (let i = 0; i + 16 <= n; i += 16) normal16(d, i);
    if (n % 16 !== 0) {
      // the last 16 drawn again and transformed, as libtorch's normal_fill
      for (let i = n - 16; i < n; i++) d[i] = uniform(g, dtype);
      normal16(d, n - 16);
    }
  } else for (let i = 0; i < n; i++) d[i] = scalarNormal(g);
  const out = dense(dtype, shape.slice());
  out.data.set(d);
  return finish(out);
}

export function randint(low: number, high: number, shape: number[], g: MersenneTwister): JsTensor {
  if (!(high > low))
    throw new Error(
      `random_ expects 'from' to be less than 'to', but got from=${low} >= to=${high}`,
    );
  const range = high - low;
  const out = dense('int64', shape.slice());
  const o = out.data;
  for (let i = 0; i < o.length; i++) {
    // libtorch: a 32-bit draw modulo the range when it fits 32 bits, else a 64-bit one
    const x = range < 2 ** 32 ? g.next() : g.double() * 2 ** 53;
    o[i] = low + (x % range);
  }
  return out;
}

export function randperm(n: number, g: MersenneTwister): JsTensor {
  if (n < 0) throw new Error(`randperm: n must be non-negative, got ${n}`);
  const p = new Float64Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  for (let i = 0; i < n - 1; i++) {
    const z = i + (g.next() % (n - i));
    const t = p[i]!;
    p[i] = p[z]!;
    p[z] = t;
  }
  return dense('int64', [n], p);
}

export function bernoulli(p: JsTensor, g: MersenneTwister): JsTensor {
  const pv = values(p);
  const out = dense(isFloating(p.dtype) ? p.dtype : 'float32', p.shape.slice());
  for (let i = 0; i < pv.length; i++) {
    const q = pv[i]!;
    if (!(q >= 0 && q <= 1)) throw new Error('bernoulli_: all elements of p must be in [0, 1]');
    out.data[i] = g.double() < q ? 1 : 0;
  }
  return out;
}

export function dropout(x: JsTensor, p: number, train: boolean, g: MersenneTwister): JsTensor {
  if (!(p >= 0 && p <= 1))
    throw new Error(`dropout probability has to be between 0 and 1, but got ${p}`);
  if (!train || p === 0) return x;
  const xv = values(x);
  const out = dense(x.dtype, x.shape.slice());
  const scale = p === 1 ? 0 : 1 / (1 - p);
  for (let i = 0; i < xv.length; i++) out.data[i] = g.float() < 1 - p ? xv[i]! * scale : 0;
  return finish(out);
}

/** probs [N?, K] -> int64 [N?, n]: n category indices per row. */
export function multinomial(
  probs: JsTensor,
  n: number,
  replacement: boolean,
  g: MersenneTwister,
): JsTensor {
  const nd = probs.shape.length;
  if (nd < 1 || nd > 2) throw new Error('prob_dist must be 1 or 2 dim');
  if (!isFloating(probs.dtype))
    throw new Error('multinomial only supports floating-point dtypes for input');
  const K = probs.shape.at(-1)!;
  const rows = nd === 2 ? probs.shape[0]! : 1;
  if (n <= 0) throw new Error('cannot sample n_sample <= 0 samples');
  if (!replacement && n > K)
    throw new Error('cannot sample n_sample > prob_dist.size(-1) samples without replacement');
  const p = values(probs);
  const out = dense('int64', nd === 2 ? [rows, n] : [n]);
  const cdf = new Float64Array(K);
  for (let r = 0; r < rows; r++) {
    let total = 0;
    for (let k = 0; k < K; k++) {
      const v = p[r * K + k]!;
      if (!(v >= 0) || !Number.isFinite(v))
        throw new Error('probability tensor contains either `inf`, `nan` or element < 0');
      total += v;
      cdf[k] = total;
    }
    if (!(total > 0))
      throw new Error('invalid multinomial distribution (sum of probabilities <= 0)');
    if (replacement) {
      for (let j = 0; j < n; j++) {
        const u = g.double() * total;
        // the first k whose cumulative mass exceeds u, skipping zero-probability entries
        let lo = 0;
        let hi = K - 1;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (cdf[mid]! > u) hi = mid;
          else lo = mid + 1;
        }
        while (lo > 0 && p[r * K + lo]! === 0) lo--;
        out.data[r * n + j] = lo;
      }
    } else {
      // the exponential race: the n largest p_k / E_k, E_k ~ Exp(1)
      const keys: [number, number][] = [];
      for (let k = 0; k < K; k++) {
        const e = -Math.log1p(-g.double());
        const v = p[r * K + k]!;
        keys.push([v > 0 ? v / e : -1, k]);
      }
      keys.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      for (let j = 0; j < n; j++) out.data[r * n + j] = keys[j]![1];
    }
  }
  return out;
}
