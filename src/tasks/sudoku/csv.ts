// Sudoku CSV files, the MGDM / qqwing layout: a header line starting `quizzes` (any further
// columns ignored), then one row per puzzle: the 81-character puzzle ('0' or '.' blank), then
// optionally the 81-character solution. LF or CRLF line endings. Bad input throws one line
// naming the file and the 1-based line: "in.csv line 7: puzzle has 80 characters, expected 81".
// Written files may carry a third column, `status` (a solver's verdict on each row).
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
import { createInterface } from 'node:readline';
import { makeDir, tempBeside, writeFileAtomic } from '../../util/atomic.js';
import { type Board, formatBoard, parseBoard } from './board.js';
import { pairProblem, type SudokuSet } from './check.js';

export interface CsvReadOptions {
  limit?: number; // read at most this many puzzles
  requireSolutions?: boolean; // a row without a solution is an error (default false)
}

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
 * A Sudoku CSV file read as it streams (issue #27: memory flat in the number of rows): chunks of
 * up to `size` rows, each with the bytes of the file read so far (for progress). Same checks and
 * errors as readSudokuCsv.
 */
export async function* streamSudokuCsv(
  path: string,
  size: number,
  opts: CsvReadOptions = {},
): AsyncGenerator<{ rows: SudokuRow[]; bytes: number }> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  let rows: SudokuRow[] = [];
  try {
    for await (const raw of lines) {
      n++;
      if (n === 1) {
        checkHeader(raw.replace(/^\uFEFF/, ''), path);
        continue;
      }
      const row = rowAt(raw, n, path, opts);
      if (!row) continue;
      rows.push(row);
      if (rows.length === size) {
        yield { rows, bytes: input.bytesRead };
        rows = [];
      }
    }
    if (n === 0) checkHeader('', path);
    if (rows.length > 0) yield { rows, bytes: input.bytesRead };
  } finally {
    lines.close();
    input.destroy();
  }
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
 * A `quizzes,solutions,status` file written as rows come (issue #27): rows go to a temporary
 * file beside the target, which `commit` renames onto it (the rows written so far: a valid
 * file) and `discard` removes. The target is never half-written.
 */
export class SudokuCsvAppender {
  readonly #temp: string;
  #fd: number | null;
  rows = 0;

  constructor(readonly path: string) {
    makeDir(dirname(resolve(path)));
    this.#temp = tempBeside(resolve(path));
    this.#fd = openSync(this.#temp, 'w');
    writeSync(this.#fd, `${csvHeader(true)}\n`);
  }

  append(rows: readonly SudokuRow[]): void {
    if (this.#fd === null) throw new Error(`${this.path}: already closed`);
    if (rows.length === 0) return;
    writeSync(this.#fd, `${rows.map((r) => formatRow(r, true)).join('\n')}\n`);
    this.rows += rows.length;
  }

  commit(): void {
    this.#close();
    renameSync(this.#temp, this.path);
  }

  discard(): void {
    this.#close();
    rmSync(this.#temp, { force: true });
  }

  #close(): void {
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
