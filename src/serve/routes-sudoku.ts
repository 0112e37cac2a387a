// The Sudoku API of `sjd serve` (sec:exp-sudoku): a generated puzzle of a chosen difficulty class,
// a solve answered whole (POST /api/sudoku/solve, JSON) or streamed step by step (GET
// /api/sudoku/stream, Server-Sent Events). A solve is `sjd solve`'s: the same sampler, defaults and
// seed give the same board, and the answer is checked as the command checks it (check.ts: solved,
// or which rows, columns and boxes break). A POST with an adaptive sampler rides the shared batch of
// its settings (sudoku-batch.ts: concurrent solves share the network's passes); a grid sampler's,
// and every stream (it shows one board's steps), runs as its own job (solveSudokuSteps over the one
// driver). The puzzle check that needs a search (has it a solution?) runs inside the job or batch.
import type { FastifyInstance } from 'fastify';
import { getSampler, type TrajectoryStep } from '../sampling/index.js';
import * as sudoku from '../tasks/sudoku/index.js';
import type { GenerateAnswer, SolveAnswer, SolveSettings } from './api-types.js';
import { need, refuseWhenFull, type ServeContext, servedSamplers, settingsOf } from './context.js';
import { HttpError } from './errors.js';
import type { ServedModel } from './models.js';
import { disconnectSignal, queuedSteps, type StepRun } from './run-steps.js';
import {
  type GenerateRequest,
  generateRequest,
  type SolveRequest,
  solveRequest,
} from './schemas.js';
import { streamSteps } from './sse.js';

/** The rows, columns and boxes (0-based) in which a board repeats a digit. */
function brokenUnits(board: sudoku.Board) {
  const broken = (first: number) =>
    [...Array(9).keys()].filter((k) => sudoku.unitRepeats(board, first + k).length > 0);
  return { rows: broken(0), columns: broken(9), boxes: broken(18) };
}

/** The checked answer to a puzzle (the JSON of /solve and of the stream's `done` event). */
function answer(puzzle: sudoku.Board, r: sudoku.SolveResult, settings: SolveSettings): SolveAnswer {
  const board = r.boards[0]!;
  const problems = r.problems[0]!;
  return {
    puzzle: sudoku.formatBoard(puzzle),
    board: sudoku.formatBoard(board),
    solved: problems.length === 0,
    problems,
    reason: problems.length === 0 ? null : sudoku.failureReason(puzzle, problems),
    broken: brokenUnits(board),
    nfe_used: r.nfe[0]!,
    attempts: r.attempts[0]!,
    ...settings,
  };
}

export function sudokuRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const samplers = servedSamplers(ctx.served.sudoku!);
  const onRequest = refuseWhenFull(ctx);

  /**
   * A request's model and settings, checked at once (a sampler that searches by the rules needs
   * them).
   */
  const settingsFor = (q: SolveRequest): { m: ServedModel; settings: SolveSettings } => {
    const m = need(ctx, 'sudoku');
    const { sampler, rules } = sudoku.sudokuSampling({
      sampler: q.sampler,
      rules: q.rules ?? m.defaults.rules,
    });
    const settings: SolveSettings = {
      ...settingsOf(m, { ...q, sampler }),
      grid: q.grid ?? m.defaults.grid,
      retries: q.retries ?? sudoku.DEFAULT_RETRIES,
      rules,
    };
    if (!settings.rules && getSampler(settings.sampler).search)
      throw new HttpError(
        400,
        `sampler: ${settings.sampler} undoes what breaks Sudoku's rules; it needs rules: true`,
      );
    return { m, settings };
  };

  /**
   * The run of a request as its own job (in the job, the puzzle's solution check comes before
   * the first step); it returns the checked answer.
   */
  const solve = (
    q: SolveRequest,
    { m, settings } = settingsFor(q),
  ): StepRun<TrajectoryStep, SolveAnswer> => {
    return {
      nfe: settings.nfe, // the budget of every attempt together
      start: function* () {
        const problem = sudoku.pairProblem(q.puzzle, null); // bounded search
        if (problem) throw new HttpError(400, `puzzle: ${problem}`);
        const r = yield* sudoku.solveSudokuSteps(m.model, m.process, q.puzzle, settings);
        return answer(q.puzzle, r, settings);
      },
    };
  };

  app.get(
    '/api/sudoku/generate',
    { onRequest, schema: { querystring: generateRequest } },
    (req) => {
      const q = req.query as GenerateRequest;
      const difficulty = q.difficulty ?? 'singles';
      const seed = q.seed ?? Math.floor(Math.random() * 2 ** 31);
      return ctx.queue.run(async (): Promise<GenerateAnswer> => {
        const g = sudoku.generateOfClass(difficulty, seed);
        return { puzzle: sudoku.formatBoard(g.puzzle), difficulty, givens: g.givens, seed };
      });
    },
  );

  app.post(
    '/api/sudoku/solve',
    { onRequest, schema: { body: solveRequest(samplers, 'body') } },
    async (req, reply) => {
      const q = req.body as SolveRequest;
      const resolved = settingsFor(q);
      const { m, settings } = resolved;
      // a grid sampler's run cannot be refilled: it runs as its own job
      if (getSampler(settings.sampler).kind !== 'adaptive')
        return queuedSteps(ctx, reply, solve(q, resolved));
      const signal = disconnectSignal(reply);
      const r = await ctx.sudokuBatches.solve(m.model, m.process, q.puzzle, settings, signal);
      return answer(q.puzzle, r, settings);
    },
  );

  app.get(
    '/api/sudoku/stream',
    {
      onRequest: [ctx.streams.admit, onRequest],
      sse: 'only',
      schema: { querystring: solveRequest(samplers, 'query') },
    },
    async (req, reply) => {
      await streamSteps(ctx, reply, solve(req.query as SolveRequest));
    },
  );
}
