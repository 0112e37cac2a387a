// The Sudoku API of `sjd serve` (sec:exp-sudoku): a generated puzzle of a chosen difficulty class,
// a solve answered whole (POST /api/sudoku/solve, JSON) or streamed step by step (GET
// /api/sudoku/stream, Server-Sent Events). A solve is `sjd solve`'s: the same sampler, defaults and
// seed give the same board, and the answer is checked as the command checks it (check.ts: solved,
// or which rows, columns and boxes break). A POST with an adaptive sampler rides the shared batch of
// its settings (sudoku-batch.ts: concurrent solves share the network's passes); a grid sampler's,
// and every stream (it shows one board's steps), runs as its own job (solveSudokuSteps over the one
// driver). The puzzle check that needs a search (has it a solution?) runs inside the job or batch.
import type { FastifyInstance } from 'fastify';
import { getSampler } from '../sampling/index.js';
import { generatePuzzle, solveAnswer, solveRun, solveSettings } from './answers.js';
import { refuseWhenFull, type ServeContext } from './context.js';
import { disconnectSignal, queuedSteps } from './run-steps.js';
import {
  type GenerateRequest,
  generateRequest,
  type SolveRequest,
  solveRequest,
} from './schemas.js';
import { need, servedSamplers } from './served.js';
import { streamSteps } from './sse.js';

export function sudokuRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const samplers = servedSamplers(ctx.served.sudoku);
  const onRequest = refuseWhenFull(ctx);

  app.get(
    '/api/sudoku/generate',
    { onRequest, schema: { querystring: generateRequest } },
    (req) => {
      const q = req.query as GenerateRequest;
      return ctx.queue.run(async () => generatePuzzle(q));
    },
  );

  app.post(
    '/api/sudoku/solve',
    { onRequest, schema: { body: solveRequest(samplers, 'body') } },
    async (req, reply) => {
      const q = req.body as SolveRequest;
      const m = need(ctx.served, 'sudoku');
      const settings = solveSettings(m, q);
      // a grid sampler's run cannot be refilled: it runs as its own job
      if (getSampler(settings.sampler).kind !== 'adaptive')
        return queuedSteps(ctx, reply, solveRun(m, q, settings));
      const signal = disconnectSignal(reply);
      const r = await ctx.sudokuBatches.solve(m.model, m.process, q.puzzle, settings, signal);
      return solveAnswer(q.puzzle, r, settings);
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
      await streamSteps(
        ctx,
        reply,
        solveRun(need(ctx.served, 'sudoku'), req.query as SolveRequest),
      );
    },
  );
}
