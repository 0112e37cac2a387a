// The sampler flags of `sjd solve` and `sjd eval sudoku` (and those `sjd demo` shares): the
// model and its compute precision, the sampler (by default the adaptive one that undoes what
// breaks the rules, under Sudoku's rules unless --no-rules; the confidence policy, 2 NFE a step,
// the paper's headline sampler; Alg. 2 or any registered sampler), its NFE budget, the adaptive
// sampler's commit rule, temperature, grid, seed, batch, retries on a symmetric copy and the
// worker processes; and those flags as the library's solve options.
import type { Command } from 'commander';
import { sampling, sudoku, torch } from '../../index.js';
import type { PrecisionSetting } from '../../model/auto-precision.js';
import type { SamplerName } from '../../sampling/index.js';
import { int, nfe, num, oneOf, samplerOption, seed, temperature } from '../options.js';
import { withPrecisionFlag } from '../precision-flag.js';

export interface SamplerOpts {
  model?: string;
  precision?: PrecisionSetting;
  sampler: SamplerName; // resolved before the action (withSolveDefaults)
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
  batch?: number;
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

/** The model the flags name: its folder (else the shipped one) and precision setting. */
export const modelSource = (o: { model?: string; precision?: PrecisionSetting }) => ({
  dir: o.model,
  precision: o.precision,
});

/** The model the flags name, loaded. */
export const loadModelOf = (o: { model?: string; precision?: PrecisionSetting }) =>
  sudoku.loadSudokuModel(o.model, o.precision);

/** The commit rule from the flags (the undoings only for a sampler that makes them). */
export const commitRule = (o: {
  sampler: SamplerName;
  commitBy: 'probability' | 'margin';
  commitThreshold: number;
  undos: number;
}): sampling.CommitRule => ({
  by: o.commitBy,
  threshold: o.commitThreshold,
  ...(sampling.getSampler(o.sampler).search ? { undos: o.undos } : {}),
});

/** The sampler flags of `sjd solve` and `sjd eval sudoku` as solveSudoku's options. */
export const solveOptions = (o: SamplerOpts): sudoku.SolveOptions => ({
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
    const o = cmd.opts() as { nfe?: number; sampler?: SamplerName; rules?: boolean };
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

/** The sampler flags of `sjd solve` and `sjd eval sudoku`, their defaults resolved before the action. */
export const samplerOptions = (c: Command) =>
  rulesOptions(
    commitOptions(
      samplerOption(
        withPrecisionFlag(
          withSolveDefaults(c).option(
            '--model <dir>',
            'a run folder or an exported model (default: the shipped model)',
          ),
          'sudoku',
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
        temperature,
        sudoku.SUDOKU_SAMPLING.temperature,
      )
      .option(
        '--grid <kind>',
        `time grid of the grid samplers (${sampling.GRID_KINDS.join(', ')})`,
        oneOf(sampling.GRID_KINDS),
        sudoku.SUDOKU_SAMPLING.grid,
      )
      .option('--seed <n>', 'random seed', seed, 0)
      .option(
        '--batch <n>',
        `boards sampled together (at most; the rest wait for a free slot; default ${sudoku.defaultSudokuBatch('cpu')} on a CPU, ${sudoku.defaultSudokuBatch('cuda')} on a GPU)`,
        int(1, 1_000_000),
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
