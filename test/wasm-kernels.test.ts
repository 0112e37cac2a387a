// The TypeScript backend's WebAssembly SIMD kernels (wasm/*.ts, src/torch/js/wasm-*.ts): the
// committed module is the one its source compiles to; the matrix product gives the float64 loop's
// products within float32 accumulation on every tile edge (sizes around its 4 x 8 tile), with B
// stored either way, a bias added, and batches read through their strides; its cache of
// transposed weights follows writes in place. The arithmetic is bit-equal to float32's correctly
// rounded results on every layout it takes, the gather equals the JavaScript walk, and layer
// normalisation is within one float32 rounding of its float64 value.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { jsBackend } from '../src/torch/js/backend.js';
import { gatherStrided } from '../src/torch/js/tensor-data.js';
import { WASM_BINARY_OPS, wasmBinary } from '../src/torch/js/wasm-binary.js';
import { wasmGather } from '../src/torch/js/wasm-gather.js';
import { hasWasmGemm, wasmGemm, wasmGemmBatched } from '../src/torch/js/wasm-gemm.js';
import { wasmLayerNorm } from '../src/torch/js/wasm-norm.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the committed WebAssembly module is what wasm/kernels.ts compiles to', () => {
  execFileSync('node', ['scripts/build-wasm.mjs', '--check'], { cwd: root, stdio: 'pipe' });
});

let seed = 1;
/** n float32 in [-1, 1) from a small LCG. */
const rnd = (n: number) =>
  Float32Array.from({ length: n }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 30 - 1;
  });

test('the WebAssembly kernel equals the float64 product on every tile edge', () => {
  assert.ok(hasWasmGemm(), 'WebAssembly SIMD is missing in this Node');
  for (const [M, K, N] of [
    [1, 8, 1],
    [3, 9, 7],
    [4, 16, 8],
    [5, 33, 17],
    [9, 128, 24],
  ] as const)
    for (const transB of [false, true]) {
      const A = rnd(M * K + 3);
      const B = rnd(K * N + 5);
      const C = new Float32Array(M * N + 2).fill(7);
      const bias = transB ? rnd(N) : null; // a linear layer's, added after the sum
      assert.ok(wasmGemm(A, 3, B, 5, C, 2, M, K, N, transB, bias));
      assert.deepEqual([C[0], C[1]], [7, 7], 'wrote before its offset');
      for (let i = 0; i < M; i++)
        for (let j = 0; j < N; j++) {
          let want = bias ? bias[j]! : 0;
          for (let k = 0; k < K; k++)
            want += A[3 + i * K + k]! * B[5 + (transB ? j * K + k : k * N + j)]!;
          const got = C[2 + i * N + j]!;
          assert.ok(
            Math.abs(got - want) <= 1e-5 * Math.max(1, Math.abs(want)) * Math.sqrt(K),
            `M ${M} K ${K} N ${N} transB ${transB} [${i}, ${j}]: ${got} against ${want}`,
          );
        }
    }
});

test('a weight written in place after a product is read again, not taken from the kernel cache', () => {
  const js = jsBackend;
  const f32 = (n: number, at: number) =>
    Float32Array.from({ length: n }, (_, i) => ((i * 7 + at) % 13) / 13);
  const x = js.fromTyped(f32(3 * 16, 1), [3, 16]);
  const w = js.fromTyped(f32(8 * 16, 2), [8, 16]);
  const before = Array.from(js.toTyped(js.linear(x, w)) as Float32Array);
  const other = js.fromTyped(f32(8 * 16, 5), [8, 16]);
  js.copy_(w, other); // the same buffer, new values
  const after = Array.from(js.toTyped(js.linear(x, w)) as Float32Array);
  const want = Array.from(js.toTyped(js.linear(x, other)) as Float32Array);
  assert.deepEqual(after, want);
  assert.notDeepEqual(after, before);
});

test('a batch of strided matrices (heads apart, a transposed key, a broadcast) multiplies as dense ones', () => {
  // qkv [L, 3, H, Dh] of one sequence: q and k of head h are views into it
  const L = 13;
  const H = 2;
  const Dh = 12;
  const qkv = rnd(L * 3 * H * Dh + 7);
  const at = (part: number, h: number) => 7 + part * H * Dh + h * Dh;
  const row = 3 * H * Dh;
  const heads = [0, 1, 1]; // head 1 twice: offsets that repeat, as a broadcast batch's do
  const A = { data: qkv, offsets: heads.map((h) => at(0, h)), rs: row, cs: 1 }; // q [L, Dh]
  const B = { data: qkv, offsets: heads.map((h) => at(1, h)), rs: 1, cs: row }; // k^T [Dh, L]
  const C = new Float32Array(heads.length * L * L);
  assert.ok(wasmGemmBatched(A, B, C, L, Dh, L));
  heads.forEach((h, q) => {
    for (let i = 0; i < L; i++)
      for (let j = 0; j < L; j++) {
        let want = 0;
        for (let k = 0; k < Dh; k++)
          want += qkv[at(0, h) + i * row + k]! * qkv[at(1, h) + j * row + k]!;
        const got = C[q * L * L + i * L + j]!;
        assert.ok(Math.abs(got - want) <= 1e-5 * Math.max(1, Math.abs(want)), `[${q}, ${i}, ${j}]`);
      }
  });
});

test('float32 add, sub, mul and div are bit-equal to the correctly rounded results on every layout', () => {
  const layouts: [string, number[], number[], number[], number[], number[]][] = [
    // name, shape, a's strides, b's strides, a's and b's buffer sizes
    ['dense', [3, 5, 11], [55, 11, 1], [55, 11, 1], [165], [165]],
    ['a row broadcast', [3, 5, 11], [55, 11, 1], [11, 0, 1], [165], [33]],
    ['b a column', [3, 5, 11], [0, 1, 0], [55, 11, 1], [5], [165]],
    ['a scalar', [4, 9], [0, 0], [9, 1], [1], [36]],
    ['a view at an offset', [4, 9], [20, 1], [0, 1], [90], [9]],
    ['a transposed operand (the loop)', [6, 7], [1, 6], [7, 1], [42], [42]],
    ['four dimensions (the loop)', [2, 3, 2, 5], [0, 5, 0, 1], [30, 10, 5, 1], [15], [60]],
  ];
  for (const [name, shape, sa, sb, [na], [nb]] of layouts) {
    const a = { d: rnd(na! + 3), st: sa, off: 3 };
    const b = { d: rnd(nb!), st: sb, off: 0 };
    const n = shape.reduce((x, y) => x * y, 1);
    for (const op of Object.keys(WASM_BINARY_OPS) as (keyof typeof WASM_BINARY_OPS)[]) {
      const out = new Float32Array(n).fill(Number.NaN);
      const ran = wasmBinary(op, shape, a, b, out);
      assert.equal(ran, !name.endsWith('(the loop)'), `${name}: which layouts the kernel takes`);
      if (!ran) continue;
      const f = {
        add: (x: number, y: number) => x + y,
        sub: (x: number, y: number) => x - y,
        mul: (x: number, y: number) => x * y,
        div: (x: number, y: number) => x / y,
      }[op];
      const idx = new Array(shape.length).fill(0);
      for (let i = 0; i < n; i++) {
        let pa = a.off;
        let pb = b.off;
        for (let d = 0; d < shape.length; d++) {
          pa += idx[d] * sa[d]!;
          pb += idx[d] * sb[d]!;
        }
        assert.equal(out[i], Math.fround(f(a.d[pa]!, b.d[pb]!)), `${name} ${op} [${idx}]`);
        for (let d = shape.length - 1; d >= 0 && ++idx[d] === shape[d]; d--) idx[d] = 0;
      }
    }
  }
});

test('the gather equals the JavaScript walk of a view', () => {
  const src = rnd(4 * 9 * 40 + 5);
  // [4, 9, 40] at offset 5, narrowed to 33 of its last 40 from 3, permuted to [33, 4, 9]
  const shape = [33, 4, 9];
  const strides = [1, 360, 40];
  const want = new Float32Array(33 * 4 * 9);
  gatherStrided(src, shape, strides, 5 + 3, want);
  const got = new Float32Array(want.length);
  assert.ok(wasmGather(src, shape, strides, 5 + 3, got));
  assert.deepEqual(got, want);
  assert.equal(wasmGather(src, [2, 2], [-1, 1], 9, got), false, 'a negative stride is refused');
});

test('layer normalisation is within one float32 rounding of its float64 value', () => {
  for (const inner of [8, 33]) {
    const x = rnd(5 * inner);
    const scale = rnd(inner);
    const shift = rnd(inner);
    for (const [w, b] of [
      [null, null],
      [scale, null],
      [scale, shift],
      [null, shift],
    ] as const) {
      const out = new Float32Array(x.length);
      assert.ok(wasmLayerNorm(x, out, inner, 1e-5, w, b));
      for (let g = 0; g < 5; g++) {
        const row = Array.from(x.subarray(g * inner, (g + 1) * inner));
        const m = row.reduce((s, v) => s + v, 0) / inner;
        const r = 1 / Math.sqrt(row.reduce((s, v) => s + (v - m) ** 2, 0) / inner + 1e-5);
        row.forEach((v, i) => {
          const want = (v - m) * r * (w ? w[i]! : 1) + (b ? b[i]! : 0);
          const got = out[g * inner + i]!;
          assert.ok(
            Math.abs(got - want) <= 2 ** -23 * Math.max(Math.abs(want), 1e-3),
            `${inner} [${g}, ${i}]: ${got} against ${want}`,
          );
        });
      }
    }
  }
});
