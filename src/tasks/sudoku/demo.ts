// The Sudoku demonstration (sjd's main job on a fresh machine): generate puzzles here (no
// download, no file outside the repository), solve them with the shipped model (under Sudoku's
// rules by default, by the default sampler for them or the one named), and report boards, the
// solve rate and the NFE the boards took.
import type { CommitRule, SamplerName } from '../../sampling/index.js';
import type { LoadedModel } from '../../train/model-io.js';
import { generatedPairs } from './data.js';
import { type SudokuScores, scoreBoards } from './metrics.js';
import { type Board, renderBoard } from './puzzle/board.js';
import { nfeSummary, solveSudoku } from './solve.js';
import { sudokuSampling } from './solve-defaults.js';

export interface SudokuDemoResult {
  puzzles: Board[];
  solutions: Board[];
  answers: Board[];
  scores: SudokuScores;
  seconds: number;
  generateSeconds: number;
  nfe_mean: number; // classifier evaluations per board, all attempts
  nfe_max: number;
  firstSolved: number; // boards the first attempt solved
  attempts: number[]; // per board (retry.ts)
}

export function runSudokuDemo(
  loaded: LoadedModel,
  o: {
    count: number;
    seed: number;
    nfe: number;
    sampler?: SamplerName;
    rules?: boolean; // sudokuSampling's default when absent
    commit?: CommitRule;
    retries?: number;
    /** told when the puzzles are made, before the solve starts */
    generated?: (seconds: number) => void;
    onStep?: (steps: number) => void; // the solve's progress (solve.ts)
  },
): SudokuDemoResult {
  const g0 = performance.now();
  const { puzzles, solutions } = generatedPairs(o.count, o.seed);
  const generateSeconds = (performance.now() - g0) / 1000;
  o.generated?.(generateSeconds);
  const t0 = performance.now();
  const { sampler, rules } = sudokuSampling(o);
  const { boards, nfe, firstSolved, attempts } = solveSudoku(
    loaded.model,
    loaded.process,
    puzzles,
    {
      sampler,
      rules,
      nfe: o.nfe,
      commit: o.commit,
      seed: o.seed,
      retries: o.retries,
      onStep: o.onStep,
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  return {
    puzzles,
    solutions,
    answers: boards,
    scores: scoreBoards(puzzles, solutions, boards),
    seconds,
    generateSeconds,
    firstSolved,
    attempts,
    ...nfeSummary(nfe),
  };
}

/** Puzzle and answer side by side, clues in brackets. */
export function sideBySide(puzzle: Board, answer: Board): string {
  const left = renderBoard(puzzle, { clues: puzzle }).split('\n');
  const right = renderBoard(answer, { clues: puzzle }).split('\n');
  return left
    .map(
      (l, i) => `${l}    ${i === Math.floor(left.length / 2) ? '->' : '  '}    ${right[i] ?? ''}`,
    )
    .join('\n');
}
