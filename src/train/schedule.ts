// Learning-rate schedules: linear warmup, then cosine decay to a floor, or constant
// (the paper's Sudoku runs: warmup + cosine; text8: constant).
export interface LrSchedule {
  kind: 'cosine' | 'constant';
  lr: number;
  warmup: number; // steps
  total: number; // steps (cosine reaches minLr here)
  minLr?: number;
}

export function learningRate(s: LrSchedule, step: number): number {
  const warm = s.warmup > 0 ? Math.min(1, (step + 1) / s.warmup) : 1;
  if (s.kind === 'constant' || step < s.warmup) return s.lr * warm;
  const minLr = s.minLr ?? 0;
  const progress = Math.min(1, (step - s.warmup) / Math.max(1, s.total - s.warmup));
  return minLr + (s.lr - minLr) * 0.5 * (1 + Math.cos(Math.PI * progress));
}
