// The API's sampling runs and answers, apart from HTTP (the routes, routes-*.ts, queue and stream
// them; the static site's worker, src/web/site-worker.ts, runs them in a browser): a generated
// puzzle; a solve, which is `sjd solve`'s (the same sampler, defaults and seed give the same
// board, checked as the command checks it: solved, or which rows, columns and boxes break); and an
// unconditional sample of a task, which is `sjd sample <task>`'s (one batch of at most
// LIMITS.samples, through the one driver), conditioned on what the task's spec takes (text: a
// template) and refused in one line naming the field that is wrong.
import { getSampler, type TrajectoryStep } from '../sampling/index.js';
import type { TaskServing } from '../tasks/common/task-spec.js';
import type { TaskModel } from '../tasks/serving.js';
import { type Board, formatBoard, unitRepeats } from '../tasks/sudoku/puzzle/board.js';
import { failureReason, pairProblem } from '../tasks/sudoku/puzzle/check.js';
import { generateOfClass } from '../tasks/sudoku/puzzle/generate-class.js';
import { DEFAULT_RETRIES, type SolveResult } from '../tasks/sudoku/retry.js';
import { solveSudokuSteps } from '../tasks/sudoku/solve.js';
import { sudokuSampling } from '../tasks/sudoku/solve-defaults.js';
import type { GenerateAnswer, SampleSettings, SolveAnswer, SolveSettings } from './api-types.js';
import { HttpError } from './http-error.js';
import type { StepRun } from './run-steps.js';
import type { GenerateRequest, SampleRequest, SolveRequest } from './schemas.js';
import { type ServedModel, settingsOf, type WithSampler } from './served.js';

/** A generated puzzle of the asked class (singles by default), from its seed or a random one. */
export function generatePuzzle(q: GenerateRequest): GenerateAnswer {
  const difficulty = q.difficulty ?? 'singles';
  const seed = q.seed ?? Math.floor(Math.random() * 2 ** 31);
  const g = generateOfClass(difficulty, seed);
  return { puzzle: formatBoard(g.puzzle), difficulty, givens: g.givens, seed };
}

/** The rows, columns and boxes (0-based) in which a board repeats a digit. */
function brokenUnits(board: Board) {
  const broken = (first: number) =>
    [...Array(9).keys()].filter((k) => unitRepeats(board, first + k).length > 0);
  return { rows: broken(0), columns: broken(9), boxes: broken(18) };
}

/** The checked answer to a puzzle (the JSON of /solve and of the stream's `done` event). */
export function solveAnswer(puzzle: Board, r: SolveResult, settings: SolveSettings): SolveAnswer {
  const board = r.boards[0]!;
  const problems = r.problems[0]!;
  return {
    puzzle: formatBoard(puzzle),
    board: formatBoard(board),
    solved: problems.length === 0,
    problems,
    reason: problems.length === 0 ? null : failureReason(puzzle, problems),
    broken: brokenUnits(board),
    nfe_used: r.nfe[0]!,
    attempts: r.attempts[0]!,
    ...settings,
  };
}

/**
 * A solve request's settings against the model's defaults, checked at once (a sampler that
 * searches by the rules needs them).
 */
export function solveSettings(m: ServedModel, q: SolveRequest): WithSampler<SolveSettings> {
  const { sampler, rules } = sudokuSampling({
    sampler: q.sampler,
    rules: q.rules ?? m.defaults.rules,
  });
  const settings: WithSampler<SolveSettings> = {
    ...settingsOf(m, { ...q, sampler }),
    grid: q.grid ?? m.defaults.grid,
    retries: q.retries ?? DEFAULT_RETRIES,
    rules,
  };
  if (!settings.rules && getSampler(settings.sampler).search)
    throw new HttpError(
      400,
      `sampler: ${settings.sampler} undoes what breaks Sudoku's rules; it needs rules: true`,
    );
  return settings;
}

/**
 * A solve as a run of its own (in the run, the puzzle's solution check comes before the first
 * step); it returns the checked answer.
 */
export function solveRun(
  m: ServedModel,
  q: SolveRequest,
  settings = solveSettings(m, q),
): StepRun<TrajectoryStep, SolveAnswer> {
  return {
    nfe: settings.nfe, // the budget of every attempt together
    start: function* () {
      const problem = pairProblem(q.puzzle, null); // bounded search
      if (problem) throw new HttpError(400, `puzzle: ${problem}`);
      const r = yield* solveSudokuSteps(m.model, m.process, q.puzzle, settings);
      return solveAnswer(q.puzzle, r, settings);
    },
  };
}

/** A sample of the task's model as a run; it returns its answer's JSON (text, images). */
export function sampleRun(
  spec: TaskServing<TaskModel>,
  m: ServedModel,
  q: SampleRequest,
): StepRun<TrajectoryStep, SampleSettings & { nfe_used: number }> {
  const settings: WithSampler<SampleSettings> = { ...settingsOf(m, q), n: q.n ?? 1 };
  const sampleSteps = spec.sampleSteps;
  if (!sampleSteps) throw new HttpError(404, `${spec.name} is not sampled unconditionally`);
  let condition: unknown;
  try {
    condition = spec.conditioning?.parse(m, q);
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
  return {
    nfe: settings.nfe,
    start: function* () {
      const r = yield* sampleSteps(m, settings, condition);
      return { ...settings, ...r.answer, nfe_used: r.nfe };
    },
  };
}
