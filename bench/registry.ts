// Benchmarks by name: each returns its time in sjd and in the reference run (same process or
// same run), printed as a ratio by bench/run.ts.
export interface BenchResult {
  sjd_ms: number;
  ref_ms: number;
  gflops?: number;
  [extra: string]: number | undefined;
}

export interface Bench {
  /** what ref_ms measures */
  reference: string;
  run: () => BenchResult | Promise<BenchResult>;
}

export const benches = new Map<string, Bench>();

export function register(
  name: string,
  run: () => BenchResult | Promise<BenchResult>,
  reference = 'PyTorch',
): void {
  benches.set(name, { reference, run });
}
