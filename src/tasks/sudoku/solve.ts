// Solving Sudoku with a trained denoiser: clues are conditioned (committed from the start and
// re-clamped each step), the blanks are sampled by a named sampler (the confidence policy or
// Alg. 2), in batches; digits 1..9 are tokens 0..8.
import type { Denoiser } from '../../model/denoiser.js';
import type { SJDProcess } from '../../process/index.js';
import { type GridKind, modelDenoiser, sample, type TrajectoryStep } from '../../sample/index.js';
import { tensor, tidy } from '../../torch/index.js';
import type { Board } from './board.js';

export interface SolveOptions {
  sampler: string; // 'confidence' | 'sjd'
  nfe: number;
  temperature?: number;
  grid?: GridKind;
  seed: number;
  batch?: number;
  record?: boolean; // trajectory of the first batch
}

export interface SolveResult {
  boards: Board[];
  trajectory?: TrajectoryStep[];
}

export function solveSudoku(
  model: Denoiser,
  proc: SJDProcess,
  puzzles: Board[],
  o: SolveOptions,
): SolveResult {
  const out: Board[] = [];
  let trajectory: TrajectoryStep[] | undefined;
  const size = o.batch ?? 256;
  const anchors = tidy(() => model.anchors.forward().detach());
  for (let start = 0; start < puzzles.length; start += size) {
    const chunk = puzzles.slice(start, start + size);
    tidy(() => {
      const B = chunk.length;
      const flat = new Float64Array(B * 81);
      chunk.forEach((p, n) => {
        for (let i = 0; i < 81; i++) flat[n * 81 + i] = p[i]!;
      });
      const digits = tensor(flat, [B, 81], 'float64');
      const r = sample({
        process: proc,
        denoiser: modelDenoiser(model),
        anchors,
        batch: B,
        length: 81,
        sampler: o.sampler,
        nfe: o.nfe,
        temperature: o.temperature ?? 1,
        grid: o.grid ?? 'cosine',
        seed: o.seed + start,
        condition: { tokens: digits.sub(1).clamp(0, null).to('int64'), mask: digits.gt(0) },
        record: o.record === true && start === 0,
      });
      if (r.trajectory) trajectory = r.trajectory;
      const tokens = r.tokens.toArray();
      for (let n = 0; n < B; n++)
        out.push(Uint8Array.from(tokens.slice(n * 81, n * 81 + 81), (v) => v + 1));
    });
  }
  anchors.dispose();
  return { boards: out, trajectory };
}
