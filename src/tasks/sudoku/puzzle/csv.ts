// Sudoku CSV files: a header naming the columns (csv-records.ts: `puzzle,solution`,
// `quizzes,solutions`, MGDM's and qqwing's layouts, extra columns ignored), then one row per
// puzzle: the 81-character puzzle ('0' or '.' blank) and, when the file has the column, the
// 81-character solution. Bad input throws one line naming the file, the 1-based line and the
// column: "in.csv line 7, column 1 (puzzle): puzzle has 80 characters, expected 81"; a streamed
// file's records are bounded (MAX_CSV_LINE), so a file of one huge line is refused in one line
// too. Written files (`quizzes,solutions`) may carry a third column, `status` (a solver's verdict
// on each row), through a temporary file that is removed on every failure, an uncaught one
// included.
import { closeSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fsReason, makeDir, openNew, tempBeside, writeFileAtomic } from '../../../util/atomic.js';
import { reapUnlessForgotten } from '../../../util/reaper.js';
import { type Board, formatBoard, parseBoard } from './board.js';
import { pairProblem, repeatProblem, type SudokuSet } from './check.js';
import {
  type CsvRecord,
  fieldProblem,
  parseRecords,
  SUDOKU_HEADERS,
  type SudokuColumns,
  streamRecords,
  sudokuColumns,
} from './csv-records.js';

export interface CsvReadOptions {
  limit?: number; // read at most this many puzzles
  requireSolutions?: boolean; // a row without a solution is an error (default false)
  maxLine?: number; // streamed files: the longest line read, in bytes (default MAX_CSV_LINE)
}

/**
 * The longest line a streamed Sudoku CSV may have, in bytes: a row is 81 + 1 + 81 characters
 * and a few columns more (qqwing's layout), far below this; a longer line is not a Sudoku row.
 */
export const MAX_CSV_LINE = 64 * 1024;

export interface SudokuRow {
  puzzle: Board;
  solution: Board | null;
  status?: string; // written as a third column when any row has one (no commas or quotes)
}

const HEADER = 'quizzes';

/** One record's pair; throws the problem as one line naming file, line and column. */
function rowOf(r: CsvRecord, cols: SudokuColumns, source: string, opts: CsvReadOptions): SudokuRow {
  const at = (column: number, problem: string) => fieldProblem(source, r, cols, column, problem);
  const field = (column: number) => r.fields[column] ?? '';
  let puzzle: Board;
  try {
    puzzle = parseBoard(field(cols.puzzle), 'puzzle');
  } catch (e) {
    throw at(cols.puzzle, (e as Error).message);
  }
  const repeat = repeatProblem(puzzle); // the puzzle's column, whatever the solution's
  if (repeat) throw at(cols.puzzle, repeat);
  const given = cols.solution === undefined ? '' : field(cols.solution);
  if (given === '') {
    if (opts.requireSolutions)
      throw cols.solution === undefined
        ? new Error(`${source}: no solution column (expected a header such as ${SUDOKU_HEADERS})`)
        : at(cols.solution, 'missing solution');
    const problem = pairProblem(puzzle, null); // a puzzle alone must still have a solution
    if (problem) throw at(cols.puzzle, problem);
    return { puzzle, solution: null };
  }
  const column = cols.solution!;
  let solution: Board;
  try {
    solution = parseBoard(given, 'solution');
  } catch (e) {
    throw at(column, (e as Error).message);
  }
  const problem = pairProblem(puzzle, solution);
  if (problem) throw at(column, problem);
  return { puzzle, solution };
}

/** Parses CSV text; `source` names the file in errors. Blank lines are skipped. */
export function parseSudokuCsv(text: string, source: string, opts: CsvReadOptions = {}): SudokuSet {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const { header, rows } = parseRecords(text, source);
  const cols = sudokuColumns(header, source);
  const out: SudokuSet = { puzzles: [], solutions: [] };
  for (const r of rows) {
    if (out.puzzles.length >= limit) break;
    const row = rowOf(r, cols, source, opts);
    out.puzzles.push(row.puzzle);
    out.solutions.push(row.solution);
  }
  return out;
}

/**
 * A Sudoku CSV file read as it streams (memory flat in the number of rows): chunks of
 * up to `size` rows, each with the bytes of the file read so far (for progress). Same checks and
 * errors as readSudokuCsv, and lines of at most `opts.maxLine` bytes.
 */
export async function* streamSudokuCsv(
  path: string,
  size: number,
  opts: CsvReadOptions = {},
): AsyncGenerator<{ rows: SudokuRow[]; bytes: number }> {
  let cols: SudokuColumns | null = null;
  let rows: SudokuRow[] = [];
  let bytes = 0;
  for await (const r of streamRecords(path, opts.maxLine ?? MAX_CSV_LINE)) {
    bytes = r.bytes;
    if (!cols) {
      cols = sudokuColumns(r.fields, path);
      continue;
    }
    rows.push(rowOf(r, cols, path, opts));
    if (rows.length === size) {
      yield { rows, bytes };
      rows = [];
    }
  }
  if (!cols) throw new Error(`${path}: empty; expected a header such as ${SUDOKU_HEADERS}`);
  if (rows.length > 0) yield { rows, bytes };
}

/** Reads a Sudoku CSV file (see parseSudokuCsv). */
export const readSudokuCsv = (path: string, opts: CsvReadOptions = {}): SudokuSet =>
  parseSudokuCsv(readFileSync(path, 'utf8'), path, opts);

/**
 * CSV text with the header `quizzes,solutions` (`,status` when any row has a status), LF line
 * endings, empty solution for null.
 */
export function formatSudokuCsv(rows: readonly SudokuRow[]): string {
  const withStatus = rows.some((r) => r.status !== undefined);
  return `${[csvHeader(withStatus), ...rows.map((r) => formatRow(r, withStatus))].join('\n')}\n`;
}

const csvHeader = (withStatus: boolean) => `${HEADER},solutions${withStatus ? ',status' : ''}`;

/** One row's CSV line (without the line break). */
function formatRow(r: SudokuRow, withStatus: boolean): string {
  const pair = `${formatBoard(r.puzzle)},${r.solution ? formatBoard(r.solution) : ''}`;
  if (!withStatus) return pair;
  const status = r.status ?? '';
  if (/[",\r\n]/.test(status))
    throw new Error(`a CSV status may not hold commas, quotes or line breaks: '${status}'`);
  return `${pair},${status}`;
}

/**
 * A `quizzes,solutions,status` file written as rows come: rows go to a temporary
 * file beside the target, which `commit` renames onto it (the rows written so far: a valid
 * file) and `discard` removes, as does the process's exit when neither was called (an uncaught
 * exception, process.exit). The target is never half-written.
 */
export class SudokuCsvAppender {
  readonly #temp: string;
  readonly #forget: () => void;
  #fd: number | null;
  readonly #onExit = () => this.discard();
  rows = 0;

  constructor(readonly path: string) {
    makeDir(dirname(resolve(path)));
    this.#temp = tempBeside(resolve(path));
    this.#forget = reapUnlessForgotten(this.#temp);
    this.#fd = openNew(this.#temp);
    process.on('exit', this.#onExit);
    writeSync(this.#fd, `${csvHeader(true)}\n`);
  }

  append(rows: readonly SudokuRow[]): void {
    if (this.#fd === null) throw new Error(`${this.path}: already closed`);
    if (rows.length === 0) return;
    try {
      writeSync(this.#fd, `${rows.map((r) => formatRow(r, true)).join('\n')}\n`);
    } catch (e) {
      throw new Error(`cannot write ${this.path}: ${fsReason(e)}`); // a full disk names the file
    }
    this.rows += rows.length;
  }

  /** Renames the rows written onto the target (once; later calls do nothing). */
  commit(): void {
    if (this.#fd === null) return;
    this.#close();
    renameSync(this.#temp, this.path);
    this.#forget();
  }

  discard(): void {
    this.#close();
    rmSync(this.#temp, { force: true });
    this.#forget();
  }

  #close(): void {
    process.removeListener('exit', this.#onExit);
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }
}

/** Writes rows as CSV atomically (util/atomic.ts), creating missing parent folders. */
export function writeSudokuCsv(path: string, rows: readonly SudokuRow[]): void {
  const text = formatSudokuCsv(rows);
  makeDir(dirname(resolve(path)));
  writeFileAtomic(path, text);
}
