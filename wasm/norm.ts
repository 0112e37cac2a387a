// Layer normalisation in WebAssembly SIMD (AssemblyScript; part of wasm/kernels.ts, called by
// src/torch/js/nn-ops.ts through wasm-norm.ts): (x - mean) / sqrt(var + eps) over each group of
// `inner` float32 elements, times scale plus shift where given, with the statistics (the biased
// variance) and each element's arithmetic in float64, rounded once to float32, as the backend's
// JavaScript loop computes them. Two float64 lanes at a time.

// @ts-nocheck: AssemblyScript, not TypeScript (v128, usize, load and store are its builtins)

/** The float32 lanes 2 and 3 of v as two float64. */
// @ts-expect-error: decorator
@inline
function high(v: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<f32>(v, v, 2, 3, 0, 1));
}

/**
 * o = (x - mean) r (* scale[i] + shift[i] where not 0) for `groups` runs of `inner` float32,
 * r = 1 / sqrt(var + eps).
 */
export function layerNorm(
  x: usize,
  o: usize,
  groups: i32,
  inner: i32,
  eps: f64,
  scale: usize,
  shift: usize,
): void {
  const n4 = inner & ~3;
  for (let g = 0; g < groups; g++) {
    const px = x + ((<usize>(g * inner)) << 2);
    const po = o + ((<usize>(g * inner)) << 2);
    let sv = f64x2.splat(0);
    let i = 0;
    for (; i < n4; i += 4) {
      const v = v128.load(px + ((<usize>i) << 2));
      sv = f64x2.add(sv, f64x2.add(f64x2.promote_low_f32x4(v), high(v)));
    }
    let sum = f64x2.extract_lane(sv, 0) + f64x2.extract_lane(sv, 1);
    for (; i < inner; i++) sum += <f64>load<f32>(px + ((<usize>i) << 2));
    const m = sum / <f64>inner;
    const mv = f64x2.splat(m);
    let qv = f64x2.splat(0);
    i = 0;
    for (; i < n4; i += 4) {
      const v = v128.load(px + ((<usize>i) << 2));
      const d0 = f64x2.sub(f64x2.promote_low_f32x4(v), mv);
      const d1 = f64x2.sub(high(v), mv);
      qv = f64x2.add(qv, f64x2.add(f64x2.mul(d0, d0), f64x2.mul(d1, d1)));
    }
    let q = f64x2.extract_lane(qv, 0) + f64x2.extract_lane(qv, 1);
    for (; i < inner; i++) {
      const d = <f64>load<f32>(px + ((<usize>i) << 2)) - m;
      q += d * d;
    }
    const r = 1 / Math.sqrt(q / <f64>inner + eps);
    const rv = f64x2.splat(r);
    i = 0;
    for (; i < n4; i += 4) {
      const at = (<usize>i) << 2;
      const v = v128.load(px + at);
      let y0 = f64x2.mul(f64x2.sub(f64x2.promote_low_f32x4(v), mv), rv);
      let y1 = f64x2.mul(f64x2.sub(high(v), mv), rv);
      if (scale) {
        const w = v128.load(scale + at);
        y0 = f64x2.mul(y0, f64x2.promote_low_f32x4(w));
        y1 = f64x2.mul(y1, high(w));
      }
      if (shift) {
        const s = v128.load(shift + at);
        y0 = f64x2.add(y0, f64x2.promote_low_f32x4(s));
        y1 = f64x2.add(y1, high(s));
      }
      const lo = f32x4.demote_f64x2_zero(y0);
      const hi = f32x4.demote_f64x2_zero(y1);
      v128.store(po + at, v128.shuffle<f32>(lo, hi, 0, 1, 4, 5));
    }
    for (; i < inner; i++) {
      const at = (<usize>i) << 2;
      let y = (<f64>load<f32>(px + at) - m) * r;
      if (scale) y *= <f64>load<f32>(scale + at);
      if (shift) y += <f64>load<f32>(shift + at);
      store<f32>(po + at, <f32>y);
    }
  }
}
