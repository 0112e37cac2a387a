// Benchmarks by name: each returns its time in sjd and in the reference run (same process or
// same run), printed as a ratio by bench/run.ts; a benchmark over several sizes returns one
// result per size (printed as `name-size`).
export interface BenchResult {
  sjd_ms: number;
  ref_ms: number;
  gflops?: number;
  [extra: string]: number | undefined;
}

/** Results by size, e.g. '1K' -> result. */
export type BenchRows = Map<string, BenchResult>;
type Run = () => BenchResult | BenchRows | Promise<BenchResult | BenchRows>;

export interface Bench {
  /** what ref_ms measures */
  reference: string;
  run: Run;
}

export const benches = new Map<string, Bench>();

export function register(name: string, run: Run, reference = 'PyTorch'): void {
  benches.set(name, { reference, run });
}
