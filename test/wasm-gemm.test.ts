// The TypeScript backend's WebAssembly SIMD matrix product (wasm/gemm.ts, src/torch/js/wasm-gemm.ts):
// the committed module is the one its source compiles to, and it gives the float64 loop's
// products within float32 accumulation on every tile edge (sizes around its 4 x 8 tile), with B
// stored either way and a bias added; its cache of transposed weights follows writes in place.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { jsBackend } from '../src/torch/js/backend.js';
import { hasWasmGemm, wasmGemm } from '../src/torch/js/wasm-gemm.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the committed WebAssembly module is what wasm/gemm.ts compiles to', () => {
  execFileSync('node', ['scripts/build-wasm.mjs', '--check'], { cwd: root, stdio: 'pipe' });
});

test('the WebAssembly kernel equals the float64 product on every tile edge', () => {
  assert.ok(hasWasmGemm(), 'WebAssembly SIMD is missing in this Node');
  let s = 1;
  const rnd = (n: number) =>
    Float32Array.from({ length: n }, () => {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      return s / 2 ** 30 - 1;
    });
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
