// A strided view made dense in WebAssembly (AssemblyScript; part of wasm/kernels.ts, called by
// src/torch/js/wasm-gather.ts): the float32 elements of a shape of up to six dimensions, walked
// row-major over element strides from `src`, written in order from `dst`. A transpose, a head
// split or a matrix operand packed for gemm is one call over the view's span copied in once.

// @ts-nocheck: AssemblyScript, not TypeScript (v128, usize, load and store are its builtins)

/** dst[i] = src[the i-th element of the view [n0, ..., n5] with strides s0 ... s5], in order. */
export function gather(
  src: usize,
  dst: usize,
  n0: i32,
  n1: i32,
  n2: i32,
  n3: i32,
  n4: i32,
  n5: i32,
  s0: i32,
  s1: i32,
  s2: i32,
  s3: i32,
  s4: i32,
  s5: i32,
): void {
  const n54 = n5 & ~3;
  let out = dst;
  for (let a = 0; a < n0; a++)
    for (let b = 0; b < n1; b++)
      for (let c = 0; c < n2; c++)
        for (let d = 0; d < n3; d++)
          for (let e = 0; e < n4; e++) {
            const base = src + ((<usize>(a * s0 + b * s1 + c * s2 + d * s3 + e * s4)) << 2);
            if (s5 === 1) {
              let f = 0;
              for (; f < n54; f += 4) v128.store(out + ((<usize>f) << 2), v128.load(base + ((<usize>f) << 2)));
              for (; f < n5; f++) store<f32>(out + ((<usize>f) << 2), load<f32>(base + ((<usize>f) << 2)));
            } else {
              const step = (<usize>s5) << 2;
              let p = base;
              for (let f = 0; f < n5; f++) {
                store<f32>(out + ((<usize>f) << 2), load<f32>(p));
                p += step;
              }
            }
            out += (<usize>n5) << 2;
          }
}
