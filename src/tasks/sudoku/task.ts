// Sudoku as a training task (app:sudoku): tokens are digits 1..9 (0..8), the clues are
// conditioned positions (committed in corruption and sampling, out of the loss), the
// structure embeddings are row, column and box, W is the identity (CADD) or the constraint
// graph (SJD). Batches draw puzzles with the run's generator, augmented per board by symmetries
// of Sudoku (symmetry.ts: digit relabelling, or that and the geometric group). Evaluation solves
// held-out puzzles.
import { createHash } from 'node:crypto';
import type { Denoiser } from '../../model/denoiser.js';
import type { SJDProcess } from '../../process/index.js';
import type { SamplerName } from '../../sampling/index.js';
import { keep, type Tensor, type TorchGenerator, tensor } from '../../torch/index.js';
import type { TaskShape, TrainTask } from '../../train/index.js';
import { scoreBoards } from './metrics.js';
import { type Board, boxOf, colOf, rowOf } from './puzzle/board.js';
import { solveSudoku } from './solve.js';
import { AUGMENTS, type Augment, augmentBoards } from './symmetry.js';

export interface SudokuPairs {
  puzzles: Board[];
  solutions: Board[];
}

export interface SudokuTaskOptions {
  evalSize: number;
  evalNfe: number;
  evalSampler: SamplerName;
  /** 'none', 'digits' (relabelling) or 'full' (and the geometric group); true = 'digits' */
  augment: Augment | boolean;
}

const cells = Array.from({ length: 81 }, (_, i) => i);

/** What a Sudoku model is built for: 81 cells, 9 digits, row, column and box structure. */
export const sudokuShape: TaskShape = {
  name: 'sudoku',
  length: 81,
  classes: 9,
  structure: [cells.map(rowOf), cells.map(colOf), cells.map(boxOf)],
};

export function hashPairs(p: SudokuPairs): string {
  const h = createHash('sha256');
  for (const b of p.puzzles) h.update(b);
  for (const b of p.solutions) h.update(b);
  return h.digest('hex');
}

export class SudokuTask implements TrainTask {
  readonly name = sudokuShape.name;
  readonly length = sudokuShape.length;
  readonly classes = sudokuShape.classes;
  readonly structure = sudokuShape.structure;
  readonly evalMetrics = ['board_accuracy', 'cell_accuracy'];
  readonly takeoffMetric = 'board_accuracy';
  readonly dataHash: string;
  readonly #x0: Tensor; // [N, 81] int64 digits - 1
  readonly #clues: Tensor; // [N, 81] bool
  readonly augment: Augment;

  constructor(
    readonly train: SudokuPairs,
    readonly held: SudokuPairs,
    readonly opts: SudokuTaskOptions,
  ) {
    if (train.puzzles.length === 0) throw new Error('sudoku: no training puzzles');
    const a = opts.augment;
    this.augment = a === true ? 'digits' : a === false ? 'none' : a;
    if (!AUGMENTS.includes(this.augment))
      throw new Error(`sudoku: augment '${a}' is not one of ${AUGMENTS.join(', ')}`);
    const N = train.puzzles.length;
    const sol = new Float64Array(N * 81);
    const clue = new Uint8Array(N * 81);
    for (let n = 0; n < N; n++) {
      for (let i = 0; i < 81; i++) {
        sol[n * 81 + i] = train.solutions[n]![i]! - 1;
        clue[n * 81 + i] = train.puzzles[n]![i]! > 0 ? 1 : 0;
      }
    }
    this.#x0 = keep(tensor(sol, [N, 81], 'float64').to('int64'));
    this.#clues = keep(tensor(clue, [N, 81], 'bool'));
    this.dataHash = hashPairs(train);
  }

  batch(size: number, gen: TorchGenerator): { x0: Tensor; condition: Tensor } {
    const idx = gen.randint(0, this.#x0.size(0), [size]);
    const x0 = this.#x0.indexSelect(0, idx); // [B, 81]
    const clues = this.#clues.indexSelect(0, idx); // [B, 81]
    const a = augmentBoards(x0, clues, this.augment, gen);
    return { x0: a.x0, condition: a.clues };
  }

  evaluate(model: Denoiser, proc: SJDProcess, step: number): Record<string, number> {
    const n = Math.min(this.opts.evalSize, this.held.puzzles.length);
    const puzzles = this.held.puzzles.slice(0, n);
    const { boards } = solveSudoku(model, proc, puzzles, {
      sampler: this.opts.evalSampler,
      nfe: this.opts.evalNfe,
      seed: step,
      retries: 0, // the curve reads the network: one attempt a board
    });
    const s = scoreBoards(puzzles, this.held.solutions.slice(0, n), boards);
    return { board_accuracy: s.solve_rate, cell_accuracy: s.cell_accuracy };
  }
}
