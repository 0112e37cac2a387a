// Benchmarks by name: each returns its time in sjd and in the reference run (same process or
// same run), printed as a ratio by bench/run.ts.
export interface BenchResult {
  sjd_ms: number;
  ref_ms: number;
  gflops?: number;
  [extra: string]: number | undefined;
}

export const benches = new Map<string, () => BenchResult | Promise<BenchResult>>();

export function register(name: string, fn: () => BenchResult | Promise<BenchResult>): void {
  benches.set(name, fn);
}
