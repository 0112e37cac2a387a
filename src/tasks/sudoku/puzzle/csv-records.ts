// The records of a Sudoku CSV file, parsed by csv-parse (quoted fields, CRLF or LF, a BOM), with
// the header's columns found by name: the puzzle in a column named `quizzes`, `quiz`, `puzzles` or
// `puzzle` (any case; a name that starts with `quizzes`, as MGDM's files have, too), the solution,
// when there is one, in `solutions` or `solution`; every other column is the caller's (qqwing's
// statistics, a solver's `status`) or ignored. Blank lines are skipped. Errors are one line naming
// the file and the 1-based line (and, for a field, its column): "in.csv line 7, column 2
// (solution): ...". A file is read whole (parse) or as it streams (streamRecords), whose records
// are bounded in size so that a file of one huge line is refused in one line.
import { createReadStream } from 'node:fs';
import { CsvError, parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';

/** One data record: its fields and the 1-based line it starts on. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** Where the puzzle and the solution are in a record (0-based columns). */
export interface SudokuColumns {
  puzzle: number;
  solution?: number;
  names: string[]; // the header's, trimmed
}

const PUZZLE_NAMES = ['quizzes', 'quiz', 'puzzles', 'puzzle'];
const SOLUTION_NAMES = ['solutions', 'solution'];

/** The header names Sudoku files use, as an error shows them. */
export const SUDOKU_HEADERS = 'puzzle,solution or quizzes,solutions';

const OPTIONS = {
  bom: true,
  info: true,
  relax_column_count: true,
  skip_empty_lines: true,
  trim: true,
} as const;

/** csv-parse's error as one line naming the file and the line. */
function csvProblem(e: unknown, source: string, maxRecord?: number): Error {
  if (!(e instanceof CsvError)) return e as Error;
  const line = (e as CsvError & { lines?: number }).lines;
  const at = line === undefined ? source : `${source} line ${line}`;
  if (e.code === 'CSV_MAX_RECORD_SIZE')
    return new Error(
      `${at}: longer than ${maxRecord?.toLocaleString('en-US')} bytes (a Sudoku row is under 200); not a Sudoku CSV`,
    );
  return new Error(`${at}: ${e.message.replace(/^Invalid Record Length: /, '').split('\n')[0]}`);
}

/** The puzzle and solution columns of `header`; one line naming the file when it has none. */
export function sudokuColumns(header: string[], source: string): SudokuColumns {
  const names = header.map((h) => h.trim());
  const lower = names.map((n) => n.toLowerCase());
  let puzzle = lower.findIndex((n) => PUZZLE_NAMES.includes(n));
  if (puzzle < 0) puzzle = lower.findIndex((n) => n.startsWith('quizzes'));
  if (puzzle < 0) {
    const shown = names.join(',');
    const what = /^[0-9.]{81}$/.test(names[0] ?? '')
      ? 'no header line (the first line is a puzzle)'
      : `no puzzle column in the header '${shown.length > 40 ? `${shown.slice(0, 40)}...` : shown}'`;
    throw new Error(`${source} line 1: ${what}; expected a header such as ${SUDOKU_HEADERS}`);
  }
  const solution = lower.findIndex((n) => SOLUTION_NAMES.includes(n));
  return { puzzle, ...(solution >= 0 && { solution }), names };
}

/** A field's problem as one line naming the file, the line and the column. */
export function fieldProblem(
  source: string,
  r: CsvRecord,
  cols: SudokuColumns,
  column: number,
  problem: string,
): Error {
  return new Error(
    `${source} line ${r.line}, column ${column + 1} (${cols.names[column]}): ${problem}`,
  );
}

/** The header and the data records of CSV text; `source` names the file in errors. */
export function parseRecords(
  text: string,
  source: string,
): { header: string[]; rows: CsvRecord[] } {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, OPTIONS); // csv-parse types its result any: with info, these records
  } catch (e) {
    throw csvProblem(e, source);
  }
  if (records.length === 0)
    throw new Error(`${source}: empty; expected a header such as ${SUDOKU_HEADERS}`);
  const [first, ...rest] = records;
  return {
    header: first!.record,
    rows: rest.map((r) => ({ fields: r.record, line: r.info.lines })),
  };
}

/**
 * The records of a file as it streams: the header first, then the data records, each with the
 * bytes of the file read so far; a record longer than `maxRecord` bytes is refused naming its line.
 */
export async function* streamRecords(
  path: string,
  maxRecord: number,
): AsyncGenerator<CsvRecord & { bytes: number }> {
  const input = createReadStream(path, { highWaterMark: 64 * 1024 });
  const parser = input.pipe(parseStream({ ...OPTIONS, max_record_size: maxRecord }));
  input.on('error', (e) => parser.destroy(e));
  try {
    for await (const r of parser as AsyncIterable<{
      record: string[];
      info: { lines: number; bytes: number };
    }>) {
      yield { fields: r.record, line: r.info.lines, bytes: r.info.bytes };
    }
  } catch (e) {
    throw csvProblem(e, path, maxRecord);
  } finally {
    input.destroy();
    parser.destroy();
  }
}
