// Sudoku CSV files, the MGDM / qqwing layout: a header line starting `quizzes` (any further
// columns ignored), then one row per puzzle: the 81-character puzzle ('0' or '.' blank), then
// optionally the 81-character solution. LF or CRLF line endings. Bad input throws one line
// naming the file and the 1-based line: "in.csv line 7: puzzle has 80 characters, expected 81".
// Written files may carry a third column, `status` (a solver's verdict on each row).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { makeDir, writeFileAtomic } from '../../util/atomic.js';
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

/** Parses CSV text; `source` names the file in errors. Blank lines are skipped. */
export function parseSudokuCsv(text: string, source: string, opts: CsvReadOptions = {}): SudokuSet {
  const limit = opts.limit ?? Number.POSITIVE_INFINITY;
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const header = lines[0]!.replace(/\r$/, '');
  if (!unquote(header.split(',')[0]!.trim()).startsWith(HEADER)) {
    const shown = header.length > 24 ? `${header.slice(0, 24)}...` : header;
    throw new Error(
      `${source} line 1: expected a header starting with '${HEADER}', got '${shown}'`,
    );
  }
  const out: SudokuSet = { puzzles: [], solutions: [] };
  for (let k = 1; k < lines.length && out.puzzles.length < limit; k++) {
    const line = lines[k]!.replace(/\r$/, '');
    if (line.trim() === '') continue;
    let row: SudokuRow;
    try {
      row = parseRow(line, opts.requireSolutions ?? false);
    } catch (e) {
      throw new Error(`${source} line ${k + 1}: ${(e as Error).message}`);
    }
    out.puzzles.push(row.puzzle);
    out.solutions.push(row.solution);
  }
  return out;
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
  const body = rows.map((r) => {
    const pair = `${formatBoard(r.puzzle)},${r.solution ? formatBoard(r.solution) : ''}`;
    if (!withStatus) return pair;
    const status = r.status ?? '';
    if (/[",\r\n]/.test(status))
      throw new Error(`a CSV status may not hold commas, quotes or line breaks: '${status}'`);
    return `${pair},${status}`;
  });
  return `${[`${HEADER},solutions${withStatus ? ',status' : ''}`, ...body].join('\n')}\n`;
}

/** Writes rows as CSV atomically (util/atomic.ts), creating missing parent folders. */
export function writeSudokuCsv(path: string, rows: readonly SudokuRow[]): void {
  const text = formatSudokuCsv(rows);
  makeDir(dirname(resolve(path)));
  writeFileAtomic(path, text);
}
