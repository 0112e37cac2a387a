// Sudoku CSV files, the MGDM / qqwing layout: a header line starting `quizzes` (any further
// columns ignored), then one row per puzzle: the 81-character puzzle ('0' or '.' blank), then
// optionally the 81-character solution. LF or CRLF line endings. Bad input throws one line
// naming the file and the 1-based line: "in.csv line 7: puzzle has 80 characters, expected 81";
// a streamed file's line is bounded (MAX_CSV_LINE), so a file of one huge line is refused in
// one line too. Written files may carry a third column, `status` (a solver's verdict on each
// row), through a temporary file that is removed on every failure, an uncaught one included.
import {
  closeSync,
  createReadStream,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { makeDir, tempBeside, writeFileAtomic } from '../../../util/atomic.js';
import { type Board, formatBoard, parseBoard } from './board.js';
import { pairProblem, type SudokuSet } from './check.js';

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

/** A field without surrounding double quotes. */
export const unquote = (f: string): string =>
  f.length >= 2 && f.startsWith('"') && f.endsWith('"') ? f.slice(1, -1) : f;

/** One data row's pair; throws the problem (without file and line) when it is unusable. */
function parseRow(line: string, requireSolutions: boolean): SudokuRow {
  const fields = line.split(',', 3).map((f) => unquote(f.trim()));
  const puzzle = parseBoard(fields[0]!, 'puzzle');
  const given = fields[1] ?? '';
  if (given === '' && requireSolutions) throw new Error('missing solution');
  const solution = given === '' ? null : parseBoard(given, 'solution');
  const problem = pairProblem(puzzle, solution);
  if (problem) throw new Error(problem);
  return { puzzle, solution };
}

/** Throws unless `header` (line 1, BOM and CR removed) starts with `quizzes`. */
function checkHeader(header: string, source: string): void {
  if (unquote(header.split(',')[0]!.trim()).startsWith(HEADER)) return;
  const shown = header.length > 24 ? `${header.slice(0, 24)}...` : header;
  throw new Error(`${source} line 1: expected a header starting with '${HEADER}', got '${shown}'`);
}

/** Data line `n` (1-based, CR removed) as a row, or null when blank; errors name file and line. */
function rowAt(line: string, n: number, source: string, opts: CsvReadOptions): SudokuRow | null {
  if (line.trim() === '') return null;
  try {
    return parseRow(line, opts.requireSolutions ?? false);
  } catch (e) {
    throw new Error(`${source} line ${n}: ${(e as Error).message}`);
  }
}

/** Parses CSV text; `source` names the file in errors. Blank lines are skipped. */
export function parseSudokuCsv(text: string, source: string, opts: CsvReadOptions = {}): SudokuSet {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  checkHeader(lines[0]!.replace(/\r$/, ''), source);
  const out: SudokuSet = { puzzles: [], solutions: [] };
  for (let k = 1; k < lines.length && out.puzzles.length < limit; k++) {
    const row = rowAt(lines[k]!.replace(/\r$/, ''), k + 1, source, opts);
    if (!row) continue;
    out.puzzles.push(row.puzzle);
    out.solutions.push(row.solution);
  }
  return out;
}

/**
 * The lines of a file as it streams (without their LF or CRLF), each with the bytes read so far;
 * a line longer than `max` bytes throws naming its 1-based number, before it is held whole.
 */
async function* fileLines(
  path: string,
  max: number,
): AsyncGenerator<{ line: string; bytes: number }> {
  const input = createReadStream(path, { highWaterMark: 64 * 1024 });
  let pending: Buffer[] = [];
  let held = 0; // bytes of the line so far
  let n = 0;
  let bytes = 0;
  const tooLong = () =>
    new Error(
      `${path} line ${n + 1}: longer than ${max.toLocaleString('en-US')} bytes (a Sudoku row is under 200); not a Sudoku CSV`,
    );
  const text = (parts: Buffer[]) => Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      let at = 0;
      for (let nl = chunk.indexOf(10, at); nl >= 0; nl = chunk.indexOf(10, at)) {
        if (held + nl - at > max) throw tooLong();
        pending.push(chunk.subarray(at, nl));
        yield { line: text(pending), bytes };
        n++;
        pending = [];
        held = 0;
        at = nl + 1;
      }
      held += chunk.length - at;
      if (held > max) throw tooLong();
      if (at < chunk.length) pending.push(chunk.subarray(at));
    }
    if (held > 0) yield { line: text(pending), bytes };
  } finally {
    input.destroy();
  }
}

/**
 * A Sudoku CSV file read as it streams (memory flat in the number of rows): chunks of up to `size`
 * rows, each with the bytes of the file read so far (for progress). Same checks and errors as
 * readSudokuCsv, and lines of at most `opts.maxLine` bytes.
 */
export async function* streamSudokuCsv(
  path: string,
  size: number,
  opts: CsvReadOptions = {},
): AsyncGenerator<{ rows: SudokuRow[]; bytes: number }> {
  let n = 0;
  let rows: SudokuRow[] = [];
  let bytes = 0;
  for await (const at of fileLines(path, opts.maxLine ?? MAX_CSV_LINE)) {
    bytes = at.bytes;
    n++;
    if (n === 1) {
      checkHeader(at.line.replace(/^\uFEFF/, ''), path);
      continue;
    }
    const row = rowAt(at.line, n, path, opts);
    if (!row) continue;
    rows.push(row);
    if (rows.length === size) {
      yield { rows, bytes };
      rows = [];
    }
  }
  if (n === 0) checkHeader('', path);
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
 * A `quizzes,solutions,status` file written as rows come: rows go to a temporary file beside the
 * target, which `commit` renames onto it (the rows written so far: a valid file) and `discard`
 * removes, as does the process's exit when neither was called (an uncaught exception,
 * process.exit). The target is never half-written.
 */
export class SudokuCsvAppender {
  readonly #temp: string;
  #fd: number | null;
  readonly #onExit = () => this.discard();
  rows = 0;

  constructor(readonly path: string) {
    makeDir(dirname(resolve(path)));
    this.#temp = tempBeside(resolve(path));
    this.#fd = openSync(this.#temp, 'w');
    process.on('exit', this.#onExit);
    writeSync(this.#fd, `${csvHeader(true)}\n`);
  }

  append(rows: readonly SudokuRow[]): void {
    if (this.#fd === null) throw new Error(`${this.path}: already closed`);
    if (rows.length === 0) return;
    writeSync(this.#fd, `${rows.map((r) => formatRow(r, true)).join('\n')}\n`);
    this.rows += rows.length;
  }

  /** Renames the rows written onto the target (once; later calls do nothing). */
  commit(): void {
    if (this.#fd === null) return;
    this.#close();
    renameSync(this.#temp, this.path);
  }

  discard(): void {
    this.#close();
    rmSync(this.#temp, { force: true });
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
