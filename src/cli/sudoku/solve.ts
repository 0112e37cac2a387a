// `sjd solve`: solve one puzzle with a trained model (the shipped one unless --model) and print
// the board, the sampler and the NFE it took, or a file of them with --file/--out (solve-file.ts).
// Every answer is checked: a board that breaks the rules is named with how it breaks them (and
// whether the puzzle has one solution, several or none), and the exit status is 3.
import type { Command } from 'commander';
import { sudoku, util } from '../../index.js';
import { heartbeat } from '../progress.js';
import {
  loadModelOf,
  type SamplerOpts,
  samplerOptions,
  solveOptions,
  workersOf,
} from './sampler-flags.js';
import { solveFile } from './solve-file.js';
import { EXIT_NOT_SOLVED } from './solve-report.js';

type SolveOpts = SamplerOpts & { file?: string; out?: string; force?: boolean; trace?: boolean };

/** The board at each recorded step (--trace), its committed cells counted. */
function printTrace(trajectory: sudoku.SolveResult['trajectory'], clues: sudoku.Board): void {
  trajectory?.forEach((s, k) => {
    const b = Uint8Array.from(s.tokens.slice(0, 81), (v) => (v < 0 ? 0 : v + 1));
    console.log(
      `step ${k} (t = ${s.t.toFixed(3)}): ${b.filter((v) => v > 0).length} cells committed`,
    );
    console.log(sudoku.renderBoard(b, { clues }));
  });
}

/** One puzzle solved and printed: the sampler and NFE, the board, its 81 characters. */
function solveOne(puzzle: string, o: SolveOpts): void {
  const clues = sudoku.parseBoard(puzzle, 'puzzle');
  const problem = sudoku.pairProblem(clues, null);
  if (problem) throw new Error(problem);
  const { model, process: proc } = loadModelOf(o);
  const settings = solveOptions(o);
  // a hard puzzle's search can take seconds: a line every few, none for a quick solve
  const beat = heartbeat('sjd solve', (k) => `${k} network passes`);
  const onStep = (k: number) => beat.update(k);
  let r: ReturnType<typeof sudoku.solveSudoku>;
  try {
    r = sudoku.solveSudoku(model, proc, [clues], { ...settings, record: o.trace, onStep });
  } finally {
    beat.stop();
  }
  const { nfe_max } = sudoku.nfeSummary(r.nfe);
  const how = sudoku.samplerLabel(o.sampler, settings.commit);
  const problems = r.problems[0]!;
  const reason = problems.length === 0 ? null : sudoku.failureReason(clues, problems);
  if (o.trace) printTrace(r.trajectory, clues);
  const tries = r.attempts[0]!;
  console.log(`${how}: ${nfe_max} NFE of ${o.nfe}${tries > 1 ? ` in ${tries} attempts` : ''}`);
  console.log(sudoku.renderBoard(r.boards[0]!, { clues }));
  console.log(sudoku.formatBoard(r.boards[0]!));
  if (reason) {
    console.error(`sjd: not solved: ${reason}`);
    process.exitCode = EXIT_NOT_SOLVED;
  }
}

export function registerSolve(program: Command): void {
  samplerOptions(
    program
      .command('solve [puzzle]')
      .description('solve an 81-character Sudoku (0 or . for blanks), or many with --file/--out')
      .option('--file <csv>', 'puzzles to solve (quizzes[,solutions])')
      .option('--out <csv>', 'where to write quizzes,solutions,status (with --file)')
      .option('--force', 'replace an existing --out file')
      .option('--trace', 'show the board filling in, step by step'),
  ).action((puzzle: string | undefined, o: SolveOpts) => {
    if ((puzzle === undefined) === (o.file === undefined))
      throw new Error('give one puzzle or --file');
    if (o.file && !o.out) throw new Error('--file needs --out');
    if (o.out && !o.file) throw new Error('--out goes with --file (one puzzle is printed)');
    if (o.out) util.claimOutFile(o.out, o.force === true);
    if (o.file) return solveFile(o.file, o.out!, o, solveOptions(o), workersOf(o));
    solveOne(puzzle!, o);
  });
}
