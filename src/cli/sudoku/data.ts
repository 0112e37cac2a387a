// `sjd data sudoku`: write a Sudoku set in the qqwing layout (quizzes, solutions, givens, one
// count per logical strategy, qqwing_difficulty) and the search-node count (search_nodes), the
// columns from our solvers: generated (--count, --seed; --allow-guessing adds puzzles that logic
// alone cannot finish; --min-nodes, --max-nodes, --clues: minimal puzzles by search difficulty),
// or converted from a puzzle file (--from: a CSV, with or without solutions, or a
// Shah et al. .npy file; the node and clue flags keep the rows in range).
import type { Command } from 'commander';
import { sudoku, util } from '../../index.js';
import { group, int, parsed, seed } from '../options.js';
import { withProgress } from '../progress.js';

interface DataSudokuOpts {
  out: string;
  count?: number;
  seed?: number;
  allowGuessing?: boolean;
  from?: string;
  force?: boolean;
  minNodes?: number;
  maxNodes?: number;
  clues?: { minClues: number; maxClues: number };
}

export function registerData(program: Command): void {
  group(program, 'data', 'prepare data')
    .command('sudoku')
    .description(
      'write Sudoku puzzles with their strategy columns (qqwing layout): generated, or from --from',
    )
    .requiredOption('--out <csv>', 'the file to write')
    .option('--count <n>', 'puzzles to generate (with --from: the first N)', int(1, 10_000_000))
    .option('--seed <n>', 'generator seed (default 0)', seed)
    .option('--allow-guessing', 'also puzzles that need guessing (minimal unique puzzles)')
    .option('--from <file>', 'convert a puzzle file (.csv or .npy) instead of generating')
    .option(
      '--min-nodes <n>',
      'minimal puzzles whose complete search takes at least N nodes (with --from: keep those)',
      int(0, 1_000_000),
    )
    .option('--max-nodes <n>', 'at most N search nodes', int(0, 1_000_000))
    .option('--clues <range>', 'clues: N or A-B', parsed(sudoku.parseClueRange))
    .option('--force', 'replace an existing --out file')
    .action((o: DataSudokuOpts) => {
      if (o.from === undefined && o.count === undefined)
        throw new Error('give --count N (puzzles to generate) or --from FILE');
      if (o.from !== undefined && (o.seed !== undefined || o.allowGuessing))
        throw new Error('--seed and --allow-guessing go with generation, not with --from');
      const ranged = o.minNodes !== undefined || o.maxNodes !== undefined || o.clues;
      const range = ranged ? { minNodes: o.minNodes, maxNodes: o.maxNodes, ...o.clues } : undefined;
      if (range) sudoku.nodeRange(range); // an empty range is refused before any work
      if (range && o.allowGuessing)
        throw new Error('--allow-guessing is implied by --min-nodes, --max-nodes and --clues');
      util.claimOutFile(o.out, o.force === true);
      const t0 = performance.now();
      const rows = o.from
        ? range
          ? sudoku.rowsInRange(sudoku.convertPuzzleFile(o.from), range).slice(0, o.count)
          : sudoku.convertPuzzleFile(o.from, o.count)
        : withProgress(`generating ${o.count} puzzles`, o.count!, 'puzzles', (update) =>
            sudoku.generateStrategySet(o.count!, {
              seed: o.seed ?? 0,
              guessing: o.allowGuessing,
              range,
              onPuzzle: update,
            }),
          );
      const seconds = (performance.now() - t0) / 1000;
      sudoku.writeStrategyCsv(o.out, rows);
      const tally = sudoku.DIFFICULTY_CLASSES.map(
        (c) => `${c} ${rows.filter((r) => sudoku.classOfLabel(r.label) === c).length}`,
      );
      const from = o.from ? `from ${o.from}` : `seed ${o.seed ?? 0}`;
      console.log(
        `wrote ${o.out}: ${rows.length} puzzles (${tally.join(', ')}), ${from}, ${seconds.toFixed(1)} s`,
      );
    });
}
