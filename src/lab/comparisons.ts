// The comparisons `sjd compare` runs, by task: sjd's own (Sudoku, text, images: each its lab
// folder's compare-entry.ts), then the `compare` entry of any task registered with one (a user's
// task module; tasks/registry.ts). The command builds a subcommand for each, in this order.
import type { CompareEntry } from '../tasks/common/task-spec.js';
import { taskSpecs } from '../tasks/registry.js';
import { imageComparison } from './image/compare-entry.js';
import { sudokuComparison } from './sudoku/compare-entry.js';
import { textComparison } from './text/compare-entry.js';

/** sjd's comparisons, by the task they compare on. */
export const COMPARISONS: Record<string, CompareEntry> = {
  sudoku: sudokuComparison,
  text: textComparison,
  image: imageComparison,
};

/** Every comparison with its task's training sizes: sjd's, then those of registered tasks. */
export function comparisons(): { task: string; sizes: string[]; entry: CompareEntry }[] {
  return taskSpecs().flatMap((spec) => {
    const entry = COMPARISONS[spec.name] ?? spec.compare;
    return entry ? [{ task: spec.name, sizes: Object.keys(spec.train.sizes), entry }] : [];
  });
}
