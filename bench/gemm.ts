// 1024^3 float32 GEMM throughput, sjd against PyTorch: catches a fall-back to reference BLAS
// (install libopenblas0-pthread; docs/design.md §3).
import { TorchGenerator, tidy } from '../src/torch/index.js';
import { median, runReference, timeMs } from './reference.js';
import { type BenchResult, register } from './registry.js';

register('gemm-1024', (): BenchResult => {
  const n = 1024;
  const reps = 10;
  const gen = new TorchGenerator(0);
  const a = gen.randn([n, n]);
  const b = gen.randn([n, n]);
  tidy(() => a.mm(b));
  const ours = Array.from({ length: reps }, () => timeMs(() => tidy(() => a.mm(b).dispose())));
  const ref = runReference(['gemm', '--n', String(n), '--reps', String(reps)]).times.map(
    (s) => s * 1000,
  );
  const sjdMs = median(ours);
  return { sjd_ms: sjdMs, ref_ms: median(ref), gflops: (2 * n ** 3) / (sjdMs * 1e6) };
});
