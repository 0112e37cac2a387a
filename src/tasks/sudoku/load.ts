// The Sudoku model a command uses: --model DIR (a run folder or an exported model), else the
// model shipped in the package (models/sudoku).
import { existsSync } from 'node:fs';
import type { Denoiser } from '../../model/denoiser.js';
import { type LoadedModel, loadTransformer } from '../../train/model-io.js';
import { SudokuTask } from './task.js';

export const SHIPPED_SUDOKU = new URL('../../../../models/sudoku', import.meta.url).pathname;

/** A task object for loading and solving only (no training data). */
export function solvingTask(): SudokuTask {
  const empty = { puzzles: [new Uint8Array(81)], solutions: [new Uint8Array(81).fill(1)] };
  return new SudokuTask(
    empty,
    { puzzles: [], solutions: [] },
    { evalSize: 0, evalNfe: 1, evalSampler: 'confidence', augment: false },
  );
}

export function loadSudokuModel(dir?: string): LoadedModel & { model: Denoiser } {
  const path = dir ?? SHIPPED_SUDOKU;
  if (!dir && !existsSync(path))
    throw new Error(
      `no shipped Sudoku model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  return loadTransformer(path, solvingTask());
}
