// Sudoku CSV files in the qqwing layout (test/fixtures/README.md): `quizzes,solutions` then
// qqwing's statistics, `givens`, one count per logical strategy (singles = naked singles,
// hidden_singles, naked_pairs, hidden_pairs, pointing_pairs_triples, box_line_intersections) and
// `qqwing_difficulty` (Simple, Easy, Intermediate; Expert: logic alone cannot finish, the puzzle
// needs guessing). Reading checks that each row's label agrees with its counts and its givens
// with its clues; errors are one line naming the file and the 1-based line.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { makeDir, writeFileAtomic } from '../../../util/atomic.js';
import { type Board, formatBoard } from './board.js';
import { parseSudokuCsv } from './csv.js';
import { parseRecords, sudokuColumns } from './csv-records.js';
import { STRATEGIES, type Strategy } from './logic-solver.js';
import { labelOfCounts, QQWING_LABELS, type StrategyStats } from './qqwing-label.js';
import { countSearchNodes } from './search-nodes.js';

export {
  labelOfCounts,
  QQWING_LABELS,
  type QqwingLabel,
  type StrategyStats,
} from './qqwing-label.js';

/** The count column of each strategy, in STRATEGIES order. */
export const COUNT_COLUMNS: Record<Strategy, string> = {
  nakedSingle: 'singles',
  hiddenSingle: 'hidden_singles',
  nakedPair: 'naked_pairs',
  hiddenPair: 'hidden_pairs',
  pointing: 'pointing_pairs_triples',
  boxLine: 'box_line_intersections',
};

/** The columns after quizzes,solutions. */
export const STRATEGY_COLUMNS = [
  'givens',
  ...STRATEGIES.map((s) => COUNT_COLUMNS[s]),
  'qqwing_difficulty',
] as const;

export interface StrategyRow extends StrategyStats {
  puzzle: Board;
  solution: Board;
  /** the complete search's node count (search-nodes.ts) */
  nodes: number;
}

/** One row's statistics from its fields; throws the problem (without file and line). */
function parseStats(fields: string[], at: Record<string, number>, puzzle: number): StrategyStats {
  const count = (name: string): number => {
    const v = fields[at[name]!] ?? '';
    if (!/^\d{1,3}$/.test(v)) throw new Error(`${name} is '${v}', expected a count`);
    return Number(v);
  };
  const counts = Object.fromEntries(STRATEGIES.map((s) => [s, count(COUNT_COLUMNS[s])]));
  const stats = { givens: count('givens'), counts: counts as Record<Strategy, number> };
  const clues = [...(fields[puzzle] ?? '')].filter((c) => c !== '0' && c !== '.').length;
  if (stats.givens !== clues)
    throw new Error(`givens is ${stats.givens} but the puzzle has ${clues} clues`);
  const raw = fields[at.qqwing_difficulty!] ?? '';
  const label = QQWING_LABELS.find((l) => l.toLowerCase() === raw.toLowerCase());
  if (!label)
    throw new Error(`qqwing_difficulty is '${raw}', expected one of ${QQWING_LABELS.join(', ')}`);
  const implied = labelOfCounts(stats.counts);
  if (label !== 'Expert' && label !== implied)
    throw new Error(`qqwing_difficulty is ${label} but the strategy counts say ${implied}`);
  return { ...stats, label };
}

/**
 * The statistics of each data row (blank lines skipped, at most `limit` rows), or null when the
 * header lacks any of STRATEGY_COLUMNS. `source` names the file in errors.
 */
export function parseStrategyColumns(
  text: string,
  source: string,
  limit = Number.POSITIVE_INFINITY,
): StrategyStats[] | null {
  const { header, rows } = parseRecords(text, source);
  if (STRATEGY_COLUMNS.some((c) => !header.includes(c))) return null;
  const { puzzle } = sudokuColumns(header, source);
  const at = Object.fromEntries(header.map((name, k) => [name, k]));
  const out: StrategyStats[] = [];
  for (const r of rows) {
    if (out.length >= limit) break;
    try {
      out.push(parseStats(r.fields, at, puzzle));
    } catch (e) {
      throw new Error(`${source} line ${r.line}: ${(e as Error).message}`);
    }
  }
  return out;
}

/** Reads a file's strategy columns (see parseStrategyColumns); null when it has none. */
export const readStrategyColumns = (path: string, limit?: number): StrategyStats[] | null =>
  parseStrategyColumns(readFileSync(path, 'utf8'), path, limit);

/**
 * Rows of a qqwing-layout file: pairs (solutions required) with their statistics; the search
 * nodes from its `search_nodes` column when it has one (checked), else counted.
 */
export function readStrategyCsv(path: string, limit?: number): StrategyRow[] {
  const text = readFileSync(path, 'utf8');
  const set = parseSudokuCsv(text, path, { limit, requireSolutions: true });
  const stats = parseStrategyColumns(text, path, limit);
  if (!stats) throw new Error(`${path}: no qqwing columns (${STRATEGY_COLUMNS.join(', ')})`);
  const nodes = parseNodeColumn(text, path, limit);
  return set.puzzles.map((puzzle, n) => ({
    puzzle,
    solution: set.solutions[n]!,
    ...stats[n]!,
    nodes: nodes?.[n] ?? countSearchNodes(puzzle).nodes,
  }));
}

/** The `search_nodes` column of each data row, or null when the header has none. */
function parseNodeColumn(text: string, source: string, limit = Number.POSITIVE_INFINITY) {
  const { header, rows } = parseRecords(text, source);
  const at = header.indexOf('search_nodes');
  if (at < 0) return null;
  const out: number[] = [];
  for (const r of rows) {
    if (out.length >= limit) break;
    const v = r.fields[at] ?? '';
    if (!/^\d{1,7}$/.test(v))
      throw new Error(`${source} line ${r.line}: search_nodes is '${v}', expected a count`);
    out.push(Number(v));
  }
  return out;
}

/**
 * CSV text in the qqwing layout (its header, LF line endings, blanks written as 0) and a last
 * column, `search_nodes` (search-nodes.ts; readers find columns by name, so it is extra to them).
 */
export function formatStrategyCsv(rows: readonly StrategyRow[]): string {
  const body = rows.map((r) =>
    [
      formatBoard(r.puzzle),
      formatBoard(r.solution),
      r.givens,
      ...STRATEGIES.map((s) => r.counts[s]),
      r.label,
      r.nodes,
    ].join(','),
  );
  const header = ['quizzes', 'solutions', ...STRATEGY_COLUMNS, 'search_nodes'];
  return `${[header.join(','), ...body].join('\n')}\n`;
}

/** Writes rows in the qqwing layout atomically (util/atomic.ts), creating missing folders. */
export function writeStrategyCsv(path: string, rows: readonly StrategyRow[]): void {
  const text = formatStrategyCsv(rows);
  makeDir(dirname(resolve(path)));
  writeFileAtomic(path, text);
}
