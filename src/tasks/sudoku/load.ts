// The Sudoku model a command uses: --model DIR (a run folder or an exported model), else the
// model shipped in the package (models/sudoku), at --precision (default SJD_PRECISION, else auto:
// model/auto-precision.ts).
import { existsSync } from 'node:fs';
import { defaultPrecisionSetting, type PrecisionSetting } from '../../model/auto-precision.js';
import type { Denoiser } from '../../model/denoiser.js';
import { type LoadedModel, loadTransformer } from '../../train/model-io.js';
import { sudokuShape } from './task.js';

export const SHIPPED_SUDOKU = new URL('../../../../models/sudoku', import.meta.url).pathname;

/**
 * Where a solve's model comes from: its folder (else the shipped model) and the compute
 * precision to sample it at; what a solve pool's workers load.
 */
export interface SudokuModelSource {
  dir?: string;
  precision?: PrecisionSetting;
}

export function loadSudokuModel(
  dir?: string,
  precision: PrecisionSetting = defaultPrecisionSetting(),
): LoadedModel & { model: Denoiser } {
  const path = dir ?? SHIPPED_SUDOKU;
  if (!dir && !existsSync(path))
    throw new Error(
      `no shipped Sudoku model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  return loadTransformer(path, sudokuShape, undefined, { precision });
}
