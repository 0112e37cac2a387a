// `sjd solve` and `sjd eval sudoku`: solve puzzles with a trained model (the shipped one unless
// --model), by the confidence policy (2 NFE a step, the paper's headline sampler) or Alg. 2.
import type { Command } from 'commander';
import { type Board, formatBoard, parseBoard, renderBoard } from '../tasks/sudoku/board.js';
import { pairProblem } from '../tasks/sudoku/check.js';
import { readSudokuCsv, writeSudokuCsv } from '../tasks/sudoku/csv.js';
import { loadPairs } from '../tasks/sudoku/data.js';
import { loadSudokuModel } from '../tasks/sudoku/load.js';
import { scoreBoards } from '../tasks/sudoku/metrics.js';
import { solveSudoku } from '../tasks/sudoku/solve.js';
import { group, int, num, oneOf } from './options.js';

interface SamplerOpts {
  model?: string;
  sampler: string;
  nfe: number;
  temperature: number;
  grid: 'uniform' | 'cosine';
  seed: number;
}

const samplerOptions = (c: Command) =>
  c
    .option('--model <dir>', 'a run folder or an exported model (default: the shipped model)')
    .option(
      '--sampler <name>',
      'confidence (2 NFE a step) or sjd (Alg. 2)',
      oneOf(['confidence', 'sjd']),
      'confidence',
    )
    .option('--nfe <n>', 'classifier evaluations', int(1, 4096), 32)
    .option('--temperature <x>', 'allocation temperature (sjd sampler)', num(1e-3, 100), 1)
    .option('--grid <kind>', 'time grid (cosine, uniform)', oneOf(['cosine', 'uniform']), 'cosine')
    .option('--seed <n>', 'random seed', int(0, 2 ** 31 - 1), 0);

export function registerSudoku(program: Command): void {
  samplerOptions(
    program
      .command('solve [puzzle]')
      .description('solve an 81-character Sudoku (0 or . for blanks), or many with --file/--out')
      .option('--file <csv>', 'puzzles to solve (quizzes[,solutions])')
      .option('--out <csv>', 'where to write quizzes,solutions (with --file)')
      .option('--trace', 'show the board filling in, step by step'),
  ).action(
    (
      puzzle: string | undefined,
      o: SamplerOpts & { file?: string; out?: string; trace?: boolean },
    ) => {
      if ((puzzle === undefined) === (o.file === undefined))
        throw new Error('give one puzzle or --file');
      if (o.file && !o.out) throw new Error('--file needs --out');
      const puzzles: Board[] = o.file
        ? readSudokuCsv(o.file).puzzles
        : [parseBoard(puzzle!, 'puzzle')];
      if (!o.file) {
        const problem = pairProblem(puzzles[0]!, null);
        if (problem) throw new Error(problem);
      }
      const { model, process: proc } = loadSudokuModel(o.model);
      const r = solveSudoku(model, proc, puzzles, {
        sampler: o.sampler,
        nfe: o.nfe,
        temperature: o.temperature,
        grid: o.grid,
        seed: o.seed,
        record: o.trace,
      });
      if (o.file) {
        writeSudokuCsv(
          o.out!,
          puzzles.map((p, n) => ({ puzzle: p, solution: r.boards[n]! })),
        );
        console.log(`solved ${puzzles.length} puzzles into ${o.out}`);
        return;
      }
      if (o.trace && r.trajectory) {
        r.trajectory.forEach((s, k) => {
          const b = Uint8Array.from(s.tokens.slice(0, 81), (v) => (v < 0 ? 0 : v + 1));
          console.log(
            `step ${k} (t = ${s.t.toFixed(3)}): ${b.filter((v) => v > 0).length} cells committed`,
          );
          console.log(renderBoard(b, { clues: puzzles[0] }));
        });
      }
      console.log(renderBoard(r.boards[0]!, { clues: puzzles[0] }));
      console.log(formatBoard(r.boards[0]!));
    },
  );

  const evalCmd = group(program, 'eval', 'evaluate a model');
  samplerOptions(
    evalCmd
      .command('sudoku')
      .description('solve rate, cell accuracy, unit validity and boards/s on a puzzle file')
      .requiredOption('--data <file>', 'puzzles with solutions (.csv or .npy)')
      .option('--limit <n>', 'the first N puzzles', int(1, 10_000_000))
      .option('--json', 'end with one JSON line of the results'),
  ).action((o: SamplerOpts & { data: string; limit?: number; json?: boolean }) => {
    const pairs = loadPairs(o.data, o.limit);
    const { model, process: proc, source } = loadSudokuModel(o.model);
    const t0 = performance.now();
    const r = solveSudoku(model, proc, pairs.puzzles, {
      sampler: o.sampler,
      nfe: o.nfe,
      temperature: o.temperature,
      grid: o.grid,
      seed: o.seed,
    });
    const seconds = (performance.now() - t0) / 1000;
    const s = scoreBoards(pairs.puzzles, pairs.solutions, r.boards);
    const out = {
      ...s,
      boards_per_s: s.boards / seconds,
      seconds,
      sampler: o.sampler,
      nfe: o.nfe,
      model: source,
      data: o.data,
    };
    console.log(
      `${s.boards} boards: solve rate ${(100 * s.solve_rate).toFixed(2)}%, cell accuracy ${(100 * s.cell_accuracy).toFixed(2)}%, ` +
        `rows/columns/boxes valid ${(100 * s.row_validity).toFixed(1)}/${(100 * s.column_validity).toFixed(1)}/${(100 * s.box_validity).toFixed(1)}%, ` +
        `${out.boards_per_s.toFixed(1)} boards/s (${o.sampler}, ${o.nfe} NFE)`,
    );
    if (o.json) console.log(JSON.stringify(out));
  });
}
