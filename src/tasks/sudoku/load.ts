// The Sudoku model a command uses: --model DIR (a run folder or an exported model), else the
// model shipped in the package (models/sudoku), at --precision where given.
import { existsSync } from 'node:fs';
import type { Denoiser } from '../../model/denoiser.js';
import type { Precision } from '../../model/precision.js';
import { type LoadedModel, loadTransformer } from '../../train/model-io.js';
import { sudokuShape } from './task.js';

export const SHIPPED_SUDOKU = new URL('../../../../models/sudoku', import.meta.url).pathname;

/**
 * Where a solve's model comes from: its folder (else the shipped model) and the compute
 * precision to sample it at (else its own); what a solve pool's workers load.
 */
export interface SudokuModelSource {
  dir?: string;
  precision?: Precision;
}

export function loadSudokuModel(
  dir?: string,
  precision?: Precision,
): LoadedModel & { model: Denoiser } {
  const path = dir ?? SHIPPED_SUDOKU;
  if (!dir && !existsSync(path))
    throw new Error(
      `no shipped Sudoku model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  return loadTransformer(path, sudokuShape, undefined, { precision });
}
