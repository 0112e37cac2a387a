// What a Sudoku solve uses unless told otherwise (`sjd solve`, `sjd eval sudoku`, `sjd demo`, the
// page and solveSudoku): the boards per sampler pass, Sudoku's rules, the sampler (chosen by the
// rules) and its NFE budget, gathered as SUDOKU_SAMPLING with the library's temperature, top-p
// and grid; and how a solve's sampler is named in the commands' output.

import type { SamplerName } from '../../sampling/index.js';
import {
  type CommitRule,
  DEFAULT_COMMIT,
  DEFAULT_UNDOS,
  getSampler,
  SAMPLING_DEFAULTS,
  type SamplingDefaults,
} from '../../sampling/index.js';
import { defaultDevice } from '../../torch/index.js';

/**
 * Boards a sampler pass takes at most unless told otherwise (the rest wait for a free slot), on
 * `device`. On a CPU a pass costs in proportion to its rows from 16 rows up (the shipped model on
 * 2 threads of a 2-core AMD EPYC: 8.7, 8.3, 8.6 and 8.6 ms a row at 16, 32, 64 and 128 rows, 13.0
 * at 256, 15.3 for one row alone), so a small batch that refilling keeps full (sampling/loop.ts)
 * is as fast a row as a large one and wastes fewer passes on a long board's tail: 16. On an
 * accelerator a pass costs about the same whatever its rows: 256.
 */
export function defaultSudokuBatch(device: string = defaultDevice()): number {
  return device === 'cpu' ? 16 : 256;
}

/**
 * Whether `sjd solve`, `sjd eval sudoku`, `sjd demo` and the page use Sudoku's rules unless told
 * otherwise (a digit a clue or committed peer holds is ruled out; the paper's samplers do not, and
 * neither do the comparisons and training evaluations, which call solveSudoku without them).
 */
export const DEFAULT_SUDOKU_RULES = true;

/**
 * The sampler of those commands unless told otherwise: with the rules, the adaptive sampler
 * that undoes what breaks them (remask-step.ts; docs/sudoku-hard.md: 99.41% against 99.02% for
 * the plain one on 512 no-guess puzzles, 94.0% against 90.5% on 200 that need guessing);
 * without them, the adaptive sampler.
 */
export function defaultSudokuSampler(rules: boolean = SUDOKU_SAMPLING.rules!): SamplerName {
  return rules ? 'adaptive-remask' : 'adaptive';
}

/** A solve's rules and sampler, each defaulted where not given (the sampler by the rules). */
export function sudokuSampling(o: { sampler?: SamplerName; rules?: boolean }): {
  sampler: SamplerName;
  rules: boolean;
} {
  const rules = o.rules ?? SUDOKU_SAMPLING.rules!;
  return { sampler: o.sampler ?? defaultSudokuSampler(rules), rules };
}

/**
 * An adaptive sampler's NFE cap per board unless told otherwise (adaptive, adaptive-remask), for
 * all attempts together: it stops when a board is full (the shipped model's first attempt spends
 * about 17 on average), so the cap is left to the retries of the boards that break (retry.ts).
 * Chosen with DEFAULT_RETRIES on validation sets (docs/sudoku-hard.md) as the least of 512, 1,024
 * and 2,048 at which both meet the aims set there (99% of puzzles that need guessing, 95% of
 * puzzles of 20+ search nodes): on 300 puzzles of 1+ search nodes 98.67% at 512 (16 retries),
 * 99.33% at 1,024 (32), 100% at 2,048 (64); on 300 of 20+ nodes 97.33%, 98.00%, 98.67%. A board
 * that never solves spends the whole cap (about 10 ms a pass alone on 2 cores), so the larger cap's
 * 0.7 points cost twice the time on every such board. On the no-guess set, 100% of 2,000 at 1,024,
 * at the boards/s of 512 (the boards that solve stop when filled).
 */
export const DEFAULT_ADAPTIVE_NFE = 1024;

/**
 * The NFE budget per board unless told otherwise: DEFAULT_ADAPTIVE_NFE for an adaptive sampler;
 * the grid samplers spend their budget, 32 as in the paper's table.
 */
export function defaultSudokuNfe(sampler: SamplerName = defaultSudokuSampler()): number {
  return getSampler(sampler).kind === 'adaptive' ? DEFAULT_ADAPTIVE_NFE : 32;
}

/**
 * Sudoku's sampling defaults (`sjd solve`, `sjd eval sudoku`, `sjd demo`, the page and
 * solveSudoku): the library's temperature, top-p and grid, with the sampler, budget and rules above.
 */
export const SUDOKU_SAMPLING: SamplingDefaults = {
  ...SAMPLING_DEFAULTS,
  sampler: () => defaultSudokuSampler(),
  nfe: defaultSudokuNfe,
  rules: DEFAULT_SUDOKU_RULES,
};

/** How the boards were sampled, for the commands' output ("adaptive sampler (probability >= 0.9999)"). */
export function samplerLabel(sampler: SamplerName, commit?: CommitRule): string {
  if (getSampler(sampler).kind !== 'adaptive')
    return sampler === 'confidence' ? 'confidence policy' : `${sampler} sampler`;
  const rule = commit ?? DEFAULT_COMMIT;
  const undos = getSampler(sampler).search ? `, ${rule.undos ?? DEFAULT_UNDOS} undos` : '';
  return `${sampler} sampler (${rule.by} >= ${rule.threshold}${undos})`;
}
