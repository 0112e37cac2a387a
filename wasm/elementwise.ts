// The TypeScript backend's exp-bound elementwise kernels in WebAssembly SIMD (AssemblyScript;
// part of wasm/kernels.ts, called by src/torch/js/wasm-elementwise.ts): GELU (exact, by
// erf) in place and softmax (or its log) of rows in place, over float32 in this module's memory.
// exp is Cephes's expf (a degree-6 polynomial on x - n ln 2, scaled by 2^n built in the exponent
// bits), within about 2 float32 ulps; erf is Abramowitz and Stegun's 7.1.26, within 1.5e-7. An
// exp below -87.3 is 0, as exp(-inf) must be for a masked attention score.

// @ts-nocheck: AssemblyScript, not TypeScript (v128, usize, load and store are its builtins)

const LOG2E: f32 = 1.44269504088896341;
const C1: f32 = 0.693359375;
const C2: f32 = -2.12194440e-4;

/** e^x in four lanes. */
// @ts-expect-error: decorator
@inline
function exp4(x: v128): v128 {
  const lo = f32x4.splat(-87.3);
  const under = f32x4.lt(x, lo);
  const v = f32x4.min(f32x4.max(x, lo), f32x4.splat(88.7));
  const fx = f32x4.nearest(f32x4.mul(v, f32x4.splat(LOG2E)));
  const r = f32x4.sub(f32x4.sub(v, f32x4.mul(fx, f32x4.splat(C1))), f32x4.mul(fx, f32x4.splat(C2)));
  let y = f32x4.splat(1.9875691500e-4);
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(1.3981999507e-3));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(8.3334519073e-3));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(4.1665795894e-2));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(1.6666665459e-1));
  y = f32x4.add(f32x4.mul(y, r), f32x4.splat(5.0000001201e-1));
  y = f32x4.add(f32x4.add(f32x4.mul(f32x4.mul(y, r), r), r), f32x4.splat(1));
  const n = i32x4.trunc_sat_f32x4_s(fx);
  const pow2n = i32x4.shl(i32x4.add(n, i32x4.splat(127)), 23);
  return v128.andnot(f32x4.mul(y, pow2n), under);
}

/** GELU(x) = x/2 (1 + erf(x / sqrt 2)) of n float32 at p, in place (n a multiple of 4). */
export function gelu(p: usize, n: i32): void {
  const half = f32x4.splat(0.5);
  const one = f32x4.splat(1);
  const s = f32x4.splat(0.70710678118654752);
  for (let i = 0; i < n; i += 4) {
    const at = p + (<usize>i << 2);
    const x = v128.load(at);
    const z = f32x4.mul(x, s);
    const a = f32x4.abs(z);
    const t = f32x4.div(one, f32x4.add(one, f32x4.mul(a, f32x4.splat(0.3275911))));
    let q = f32x4.splat(1.061405429);
    q = f32x4.add(f32x4.mul(q, t), f32x4.splat(-1.453152027));
    q = f32x4.add(f32x4.mul(q, t), f32x4.splat(1.421413741));
    q = f32x4.add(f32x4.mul(q, t), f32x4.splat(-0.284496736));
    q = f32x4.add(f32x4.mul(q, t), f32x4.splat(0.254829592));
    const e = f32x4.sub(one, f32x4.mul(f32x4.mul(q, t), exp4(f32x4.neg(f32x4.mul(a, a)))));
    // erf is odd: the sign of z on |erf|
    const signed = v128.bitselect(f32x4.neg(e), e, f32x4.lt(z, f32x4.splat(0)));
    v128.store(at, f32x4.mul(f32x4.mul(half, x), f32x4.add(one, signed)));
  }
}

/** Softmax (log: its log) of `rows` rows of n float32 at p, each row in place. */
export function softmax(p: usize, rows: i32, n: i32, log: bool): void {
  const n4 = n & ~3;
  for (let r = 0; r < rows; r++) {
    const row = p + ((<usize>r * n) << 2);
    // the row's maximum
    let m: f32 = -Infinity;
    let mv = f32x4.splat(-Infinity);
    for (let i = 0; i < n4; i += 4) mv = f32x4.max(mv, v128.load(row + (<usize>i << 2)));
    m = max(max(f32x4.extract_lane(mv, 0), f32x4.extract_lane(mv, 1)), max(f32x4.extract_lane(mv, 2), f32x4.extract_lane(mv, 3)));
    for (let i = n4; i < n; i++) m = max(m, load<f32>(row + (<usize>i << 2)));
    // exponentials (kept unless log) and their sum
    const ms = f32x4.splat(m);
    let sv = f32x4.splat(0);
    for (let i = 0; i < n4; i += 4) {
      const at = row + (<usize>i << 2);
      const e = exp4(f32x4.sub(v128.load(at), ms));
      sv = f32x4.add(sv, e);
      if (!log) v128.store(at, e);
    }
    let sum: f32 = f32x4.extract_lane(sv, 0) + f32x4.extract_lane(sv, 1) + f32x4.extract_lane(sv, 2) + f32x4.extract_lane(sv, 3);
    for (let i = n4; i < n; i++) {
      const at = row + (<usize>i << 2);
      const e = f32x4.extract_lane(exp4(f32x4.splat(load<f32>(at) - m)), 0);
      sum += e;
      if (!log) store<f32>(at, e);
    }
    if (log) {
      const l = f32x4.splat(m + Mathf.log(sum));
      for (let i = 0; i < n4; i += 4) {
        const at = row + (<usize>i << 2);
        v128.store(at, f32x4.sub(v128.load(at), l));
      }
      const ls = m + Mathf.log(sum);
      for (let i = n4; i < n; i++) store<f32>(row + (<usize>i << 2), load<f32>(row + (<usize>i << 2)) - ls);
    } else {
      const inv = f32x4.splat(1 / sum);
      for (let i = 0; i < n4; i += 4) {
        const at = row + (<usize>i << 2);
        v128.store(at, f32x4.mul(v128.load(at), inv));
      }
      for (let i = n4; i < n; i++) store<f32>(row + (<usize>i << 2), load<f32>(row + (<usize>i << 2)) / sum);
    }
  }
}
