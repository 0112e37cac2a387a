// `sjd solve` and `sjd eval sudoku`: solve puzzles with a trained model (the shipped one unless
// --model), under Sudoku's rules unless --no-rules, by the adaptive sampler (each board at its
// own time, stopped when filled; by default the one that undoes what breaks the rules), the
// confidence policy (2 NFE a step, the paper's headline sampler), Alg. 2 or any registered
// sampler; the output names the sampler and the NFE the boards took. Every answer
// is checked: `sjd solve` says how a board breaks the rules (and whether the puzzle has one
// solution, several or none) and exits with status 3 when any board is not solved; --out marks
// each row's status.
import type { Command } from 'commander';
import { sampling, sudoku, torch, util } from '../index.js';
import { EXIT_INTERRUPTED, interruptible } from './interrupt.js';
import { group, int, nfe, num, oneOf, samplerOption } from './options.js';
import { heartbeat } from './progress.js';
import { solveFile } from './solve-file.js';
import { EXIT_NOT_SOLVED, retryNote } from './solve-report.js';

interface SamplerOpts {
  model?: string;
  sampler: string; // resolved before the action (withSolveDefaults)
  nfe: number;
  commitBy: 'probability' | 'margin';
  commitThreshold: number;
  undos: number;
  temperature: number;
  grid: sampling.GridKind;
  seed: number;
  rules: boolean; // resolved before the action (withSolveDefaults)
  retries: number;
  remask?: boolean;
  batch: number;
  workers?: number; // unset: the thread count (workersOf)
}

/** How --nfe defaults, from sudoku.defaultSudokuNfe (shared with `sjd demo`). */
export const nfeDefaults = `the adaptive sampler's cap over all attempts; default ${sudoku.defaultSudokuNfe('adaptive')} for it, ${sudoku.defaultSudokuNfe('confidence')} for the others`;

/** The adaptive sampler's flags (shared with `sjd demo`). */
export const commitOptions = (c: Command) =>
  c
    .option(
      '--commit-by <rule>',
      'adaptive: a site is sure by its top probability or the margin between its top two',
      oneOf(['probability', 'margin']),
      sampling.DEFAULT_COMMIT.by,
    )
    .option(
      '--commit-threshold <p>',
      'adaptive: commit every site at least this sure (and the surest one) each step',
      num(Number.MIN_VALUE, 1),
      sampling.DEFAULT_COMMIT.threshold,
    )
    .option(
      '--undos <n>',
      'adaptive-remask: the undoings a board may make in one attempt',
      int(0, 1_000_000),
      sampling.DEFAULT_UNDOS,
    );

/** The commit rule from the flags (the undoings only for a sampler that makes them). */
export const commitRule = (o: {
  sampler: string;
  commitBy: 'probability' | 'margin';
  commitThreshold: number;
  undos: number;
}): sampling.CommitRule => ({
  by: o.commitBy,
  threshold: o.commitThreshold,
  ...(sampling.getSampler(o.sampler).search ? { undos: o.undos } : {}),
});

/** The sampler flags of `sjd solve` and `sjd eval sudoku` as solveSudoku's options. */
const solveOptions = (o: SamplerOpts): sudoku.SolveOptions => ({
  sampler: o.sampler,
  nfe: o.nfe,
  commit: commitRule(o),
  temperature: o.temperature,
  grid: o.grid,
  seed: o.seed,
  rules: o.rules,
  retries: o.retries,
  remask: o.remask,
  batch: o.batch,
});

/** --rules and --sampler unset: their defaults (sudoku.sudokuSampling); --nfe unset: the sampler's budget. */
const withSolveDefaults = (c: Command) =>
  c.hook('preAction', (cmd) => {
    const o = cmd.opts() as { nfe?: number; sampler?: string; rules?: boolean };
    const { sampler, rules } = sudoku.sudokuSampling(o);
    cmd.setOptionValue('sampler', sampler);
    cmd.setOptionValue('rules', rules);
    if (o.nfe === undefined) cmd.setOptionValue('nfe', sudoku.SUDOKU_SAMPLING.nfe(sampler));
  });

/** How --sampler defaults (shared with `sjd demo`). */
export const samplerDefaults = `default ${sudoku.defaultSudokuSampler(true)}, or ${sudoku.defaultSudokuSampler(false)} with --no-rules`;

/** The --rules and --no-rules flags (shared with `sjd demo`): the rules are on unless --no-rules. */
export const rulesOptions = (c: Command) =>
  c
    .option(
      '--rules',
      "use Sudoku's rules: a digit a clue or committed peer holds is ruled out, and every other digit at a hidden single (the default; the paper's samplers do not)",
    )
    .option('--no-rules', "sample from the model alone, as the paper's samplers do");

const samplerOptions = (c: Command) =>
  rulesOptions(
    commitOptions(
      samplerOption(
        withSolveDefaults(c).option(
          '--model <dir>',
          'a run folder or an exported model (default: the shipped model)',
        ),
        '--sampler',
        `sampler (${samplerDefaults}; adaptive: each board at its own time, stops when filled; adaptive-remask: also undoes what breaks the rules; confidence: the paper's policy, 2 NFE a step; sjd: Alg. 2)`,
        undefined,
        true,
      ),
    )
      .option('--nfe <n>', `classifier evaluations per board (${nfeDefaults})`, nfe)
      .option(
        '--temperature <x>',
        'classifier temperature: divides the logits (ranking, allocation, drift)',
        num(1e-3, 100),
        sudoku.SUDOKU_SAMPLING.temperature,
      )
      .option(
        '--grid <kind>',
        `time grid of the grid samplers (${sampling.GRID_KINDS.join(', ')})`,
        oneOf(sampling.GRID_KINDS),
        sudoku.SUDOKU_SAMPLING.grid,
      )
      .option('--seed <n>', 'random seed', int(0, 2 ** 31 - 1), 0)
      .option(
        '--batch <n>',
        'boards sampled together (at most; the rest wait for the next batch)',
        int(1, 1_000_000),
        sudoku.DEFAULT_SUDOKU_BATCH,
      )
      .option(...retriesOption)
      .option(...remaskOption)
      .option(
        '--workers <n>',
        'processes of one libtorch thread each that share a solve of more than one batch (default: --threads; 1: this process alone)',
        int(1, 64),
      ),
  );

/** --workers, else one a libtorch thread (they scale better than threads on Sudoku's passes). */
export const workersOf = (o: { workers?: number }): number => o.workers ?? torch.getNumThreads();

/**
 * A solve of many puzzles: across worker processes (sudoku.solvePuzzles), stopped by `stop`,
 * saying every few seconds how many boards are done (the solve turns the event loop between its
 * steps, and the workers run apart, so the heartbeat's timer fires).
 */
async function solveMany(
  o: SamplerOpts,
  loaded: sudoku.LoadedSudoku,
  puzzles: sudoku.Board[],
  stop?: AbortSignal,
) {
  const beat = heartbeat(`solving ${puzzles.length} puzzles`, (boards) => `${boards} boards done`);
  try {
    return await sudoku.solvePuzzles(
      loaded,
      o.model,
      puzzles,
      solveOptions(o),
      workersOf(o),
      stop,
      (done) => beat.update(done),
    );
  } finally {
    beat.stop();
  }
}

/** The --remask flag. */
export const remaskOption = [
  '--remask',
  "retry a broken board from its answer's cells outside the units that break the rules (then fewer, then from the puzzle) rather than from the puzzle each time",
] as const;

/** The --retries flag (shared with `sjd demo`). */
export const retriesOption = [
  '--retries <n>',
  'solve a board that breaks the rules again, on a symmetric copy of its puzzle, up to N more times while its NFE budget lasts (0: one attempt, as in the paper)',
  int(0, 1000),
  sudoku.DEFAULT_RETRIES,
] as const;

export function registerSudoku(program: Command): void {
  samplerOptions(
    program
      .command('solve [puzzle]')
      .description('solve an 81-character Sudoku (0 or . for blanks), or many with --file/--out')
      .option('--file <csv>', 'puzzles to solve (quizzes[,solutions])')
      .option('--out <csv>', 'where to write quizzes,solutions,status (with --file)')
      .option('--force', 'replace an existing --out file')
      .option('--trace', 'show the board filling in, step by step'),
  ).action(
    (
      puzzle: string | undefined,
      o: SamplerOpts & { file?: string; out?: string; force?: boolean; trace?: boolean },
    ) => {
      if ((puzzle === undefined) === (o.file === undefined))
        throw new Error('give one puzzle or --file');
      if (o.file && !o.out) throw new Error('--file needs --out');
      if (o.out && !o.file) throw new Error('--out goes with --file (one puzzle is printed)');
      if (o.out) util.claimOutFile(o.out, o.force === true);
      if (o.file) return solveFile(o.file, o.out!, o, solveOptions(o), workersOf(o));
      const puzzles = [sudoku.parseBoard(puzzle!, 'puzzle')];
      const problem = sudoku.pairProblem(puzzles[0]!, null);
      if (problem) throw new Error(problem);
      const { model, process: proc } = sudoku.loadSudokuModel(o.model);
      const settings = solveOptions(o);
      const commit = settings.commit;
      const r = sudoku.solveSudoku(model, proc, puzzles, { ...settings, record: o.trace });
      const { nfe_max } = sudoku.nfeSummary(r.nfe);
      const how = sudoku.samplerLabel(o.sampler, commit);
      const reasons = r.problems.map((p, n) =>
        p.length === 0 ? null : sudoku.failureReason(puzzles[n]!, p),
      );
      if (o.trace && r.trajectory) {
        r.trajectory.forEach((s, k) => {
          const b = Uint8Array.from(s.tokens.slice(0, 81), (v) => (v < 0 ? 0 : v + 1));
          console.log(
            `step ${k} (t = ${s.t.toFixed(3)}): ${b.filter((v) => v > 0).length} cells committed`,
          );
          console.log(sudoku.renderBoard(b, { clues: puzzles[0] }));
        });
      }
      const tries = r.attempts[0]!;
      console.log(`${how}: ${nfe_max} NFE of ${o.nfe}${tries > 1 ? ` in ${tries} attempts` : ''}`);
      console.log(sudoku.renderBoard(r.boards[0]!, { clues: puzzles[0] }));
      console.log(sudoku.formatBoard(r.boards[0]!));
      if (reasons[0]) {
        console.error(`sjd: not solved: ${reasons[0]}`);
        process.exitCode = EXIT_NOT_SOLVED;
      }
    },
  );

  const evalCmd = group(program, 'eval', 'evaluate a model');
  samplerOptions(
    evalCmd
      .command('sudoku')
      .description('solve rate, cell accuracy, unit validity and boards/s on a puzzle file')
      .requiredOption('--data <file>', 'puzzles with solutions (.csv or .npy)')
      .option('--limit <n>', 'the first N puzzles', int(1, 10_000_000))
      .option(
        '--by-nodes',
        'solve each search-node bucket on its own, so that boards/s is measured per bucket',
      )
      .option('--json', 'end with one JSON line of the results'),
  ).action(
    async (
      o: SamplerOpts & { data: string; limit?: number; json?: boolean; byNodes?: boolean },
    ) => {
      const all = sudoku.loadPairs(o.data, o.limit);
      const loaded = sudoku.loadSudokuModel(o.model);
      const source = loaded.source;
      const settings = solveOptions(o);
      const commit = settings.commit;
      const allNodes = all.puzzles.map((p) => sudoku.countSearchNodes(p).nodes);
      const buckets = allNodes.map(sudoku.nodeBucket);
      // Ctrl-C stops the solve within a sampler step (its workers with it); the scores are then
      // over the puzzles solved before it
      const stop = interruptible('the evaluation');
      const solve = (ps: sudoku.Board[]) => solveMany(o, loaded, ps, stop.signal);
      const t0 = performance.now();
      let grouped: sudoku.GroupedSolve | undefined;
      let whole: sudoku.PartialSolve | undefined;
      try {
        if (o.byNodes) grouped = await sudoku.solveGrouped(all.puzzles, buckets, solve);
        else whole = await solve(all.puzzles);
      } finally {
        stop.release();
      }
      const seconds = (performance.now() - t0) / 1000;
      const done = grouped?.done ?? Array.from({ length: whole!.done }, (_, i) => i);
      const pick = <T>(xs: readonly T[]): T[] => done.map((i) => xs[i]!);
      const full = grouped?.result ?? whole!;
      if (done.length < all.puzzles.length) {
        process.exitCode = EXIT_INTERRUPTED;
        if (done.length === 0) {
          console.error('sjd: interrupted before the first batch of puzzles was solved');
          return;
        }
        console.error(
          `sjd: interrupted after ${done.length} of ${all.puzzles.length} puzzles; the scores below are over those ${done.length}`,
        );
      }
      const pairs = { puzzles: pick(all.puzzles), solutions: pick(all.solutions) };
      const nodes = pick(allNodes);
      const r = {
        ...full,
        boards: pick(full.boards),
        problems: pick(full.problems),
        nfe: pick(full.nfe),
        attempts: pick(full.attempts),
      };
      const s = sudoku.scoreBoards(pairs.puzzles, pairs.solutions, r.boards);
      const adaptive = sampling.getSampler(o.sampler).kind === 'adaptive';
      const { classes, source: classSource } = sudoku.difficultyClasses(o.data, all.puzzles, done);
      const byDifficulty = sudoku.scoreByDifficulty(
        pairs.puzzles,
        pairs.solutions,
        r.boards,
        classes,
        r.nfe,
      );
      const byNodes = sudoku.scoreByNodes(
        { ...pairs, boards: r.boards, nfe: r.nfe, attempts: r.attempts },
        nodes,
      );
      if (grouped)
        for (const [b, sec] of Object.entries(grouped.seconds))
          byNodes[b]!.boards_per_s = byNodes[b]!.boards / sec;
      const out = {
        ...s,
        boards_per_s: s.boards / seconds,
        seconds,
        sampler: o.sampler,
        ...(adaptive ? { commit } : {}),
        rules: o.rules,
        retries: o.retries,
        remask: o.remask === true,
        first_attempt_solve_rate: r.firstSolved / r.boards.length,
        retried: sudoku.retriedBoards(r.attempts),
        nfe: o.nfe,
        ...sudoku.nfeSummary(r.nfe),
        by_difficulty: byDifficulty,
        difficulty_from: classSource,
        by_nodes: byNodes,
        model: source,
        data: o.data,
      };
      console.log(
        `${s.boards} boards: solve rate ${(100 * s.solve_rate).toFixed(2)}%, cell accuracy ${(100 * s.cell_accuracy).toFixed(2)}%, ` +
          `rows/columns/boxes valid ${(100 * s.row_validity).toFixed(1)}/${(100 * s.column_validity).toFixed(1)}/${(100 * s.box_validity).toFixed(1)}%, ` +
          `${out.boards_per_s.toFixed(1)} boards/s (${sudoku.samplerLabel(o.sampler, commit)}; NFE per board mean ${out.nfe_mean.toFixed(1)}, max ${out.nfe_max} of ${o.nfe})${retryNote(r)}`,
      );
      for (const c of sudoku.DIFFICULTY_CLASSES) {
        const d = byDifficulty[c];
        if (d)
          console.log(
            `  ${c}: ${d.boards} boards, solve rate ${(100 * d.solve_rate).toFixed(2)}%, cell accuracy ${(100 * d.cell_accuracy).toFixed(2)}%, NFE per board mean ${d.nfe_mean!.toFixed(1)}`,
          );
      }
      console.log(
        `  (difficulty ${classSource === 'columns' ? "from the file's strategy columns" : 'by the logical solver'})`,
      );
      console.log('  by search nodes (a complete search with singles propagation):');
      for (const [label] of sudoku.NODE_BUCKETS) {
        const d = byNodes[label];
        if (!d) continue;
        const rate = d.boards_per_s === undefined ? '' : `, ${d.boards_per_s.toFixed(1)} boards/s`;
        console.log(
          `  ${label.padStart(5)} nodes: ${d.boards} boards, solve rate ${(100 * d.solve_rate).toFixed(2)}%, first attempt ${(100 * d.first_attempt_rate!).toFixed(2)}%, NFE per board mean ${d.nfe_mean!.toFixed(1)}, max ${d.nfe_max}${rate}`,
        );
      }
      if (o.json) console.log(JSON.stringify(out));
    },
  );
}
