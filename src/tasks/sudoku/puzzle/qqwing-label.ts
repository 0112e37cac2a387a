// qqwing's difficulty labels (app:sudoku) and the label a puzzle's strategy counts imply: what
// the qqwing columns of a CSV hold (qqwing-csv.ts reads and writes them) and what the logical
// solver's counts give (difficulty.ts). Reads no files.
import { STRATEGIES, type Strategy } from './logic-solver.js';

/** qqwing's difficulty labels, easiest first. */
export const QQWING_LABELS = ['Simple', 'Easy', 'Intermediate', 'Expert'] as const;
export type QqwingLabel = (typeof QQWING_LABELS)[number];

/** A row's statistics: clue count, strategy applications and label. */
export interface StrategyStats {
  givens: number;
  counts: Record<Strategy, number>;
  label: QqwingLabel;
}

/**
 * The label the counts imply for a puzzle that logic finishes: Intermediate when a pair or
 * intersection strategy was needed, else Easy when a hidden single was, else Simple. (Both
 * qqwing and logic-solver.ts apply the easiest strategy first, so a harder one counts only if needed.)
 */
export function labelOfCounts(counts: Record<Strategy, number>): QqwingLabel {
  if (STRATEGIES.slice(2).some((s) => counts[s] > 0)) return 'Intermediate';
  return counts.hiddenSingle > 0 ? 'Easy' : 'Simple';
}
