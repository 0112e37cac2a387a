// The four float32 arithmetic ops of the TypeScript backend in WebAssembly SIMD (AssemblyScript;
// part of wasm/kernels.ts, called by src/torch/js/wasm-binary.ts): out = a op b over a dense
// result of up to three dimensions [n0, n1, n2], each operand read through its own strides, the
// last of them 1 (dense) or 0 (one element broadcast along the row). IEEE float32 arithmetic:
// each result is the correctly rounded one, as libtorch's and the JavaScript loop's are.

// @ts-nocheck: AssemblyScript, not TypeScript (v128, usize, load and store are its builtins)

/** op: 0 add, 1 sub, 2 mul, 3 div, in four lanes. */
// @ts-expect-error: decorator
@inline
function op4(op: i32, x: v128, y: v128): v128 {
  if (op === 0) return f32x4.add(x, y);
  if (op === 1) return f32x4.sub(x, y);
  if (op === 2) return f32x4.mul(x, y);
  return f32x4.div(x, y);
}

/** op of two scalars. */
// @ts-expect-error: decorator
@inline
function op1(op: i32, x: f32, y: f32): f32 {
  if (op === 0) return x + y;
  if (op === 1) return x - y;
  if (op === 2) return x * y;
  return x / y;
}

/**
 * out[i0, i1, i2] = a[i0 sa0 + i1 sa1 + i2 ua] op b[i0 sb0 + i1 sb1 + i2 ub], ua and ub 0 or 1
 * (strides in elements), out dense.
 */
export function binary(
  op: i32,
  out: usize,
  a: usize,
  b: usize,
  n0: i32,
  n1: i32,
  n2: i32,
  sa0: i32,
  sa1: i32,
  ua: i32,
  sb0: i32,
  sb1: i32,
  ub: i32,
): void {
  const n4 = n2 & ~3;
  let po = out;
  for (let i0 = 0; i0 < n0; i0++)
    for (let i1 = 0; i1 < n1; i1++) {
      const pa = a + ((<usize>(i0 * sa0 + i1 * sa1)) << 2);
      const pb = b + ((<usize>(i0 * sb0 + i1 * sb1)) << 2);
      let k = 0;
      if (ua && ub) {
        for (; k < n4; k += 4) {
          const at = (<usize>k) << 2;
          v128.store(po + at, op4(op, v128.load(pa + at), v128.load(pb + at)));
        }
      } else if (ua) {
        const y = v128.load32_splat(pb);
        for (; k < n4; k += 4) {
          const at = (<usize>k) << 2;
          v128.store(po + at, op4(op, v128.load(pa + at), y));
        }
      } else if (ub) {
        const x = v128.load32_splat(pa);
        for (; k < n4; k += 4) {
          const at = (<usize>k) << 2;
          v128.store(po + at, op4(op, x, v128.load(pb + at)));
        }
      }
      for (; k < n2; k++)
        store<f32>(
          po + ((<usize>k) << 2),
          op1(op, load<f32>(pa + ((<usize>(k * ua)) << 2)), load<f32>(pb + ((<usize>(k * ub)) << 2))),
        );
      po += (<usize>n2) << 2;
    }
}
