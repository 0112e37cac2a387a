// The status API of `sjd serve`: GET /health (cheap: never queued, so it answers while jobs run;
// the queue's state, running jobs told from those stalled on a client that does not read, Sudoku's
// shared solve batches, the open streams, the resident memory and the event loop's delay since the
// start) and GET /api/models (what the page offers: each task's model, samplers and defaults, or
// why it is unavailable; the request limits; the difficulty classes of generated puzzles). Both
// answers are typed by api-types.ts, the page's types.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { taskSpecs } from '../tasks/registry.js';
import type { HealthAnswer } from './api-types.js';
import type { ServeContext } from './context.js';
import { modelsInfo } from './served.js';

export function statusRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const started = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 10 }); // how long the loop waits to turn
  loop.enable();
  app.addHook('onClose', async () => loop.disable());
  app.get(
    '/health',
    async (): Promise<HealthAnswer> => ({
      status: 'ok',
      uptime_s: Math.round((performance.now() - started) / 1000),
      rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20),
      loop_delay_ms: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
      queue: ctx.queue.stats(),
      sudoku_batch: ctx.sudokuBatches.stats(),
      streams: ctx.streams.open(),
    }),
  );

  const models = modelsInfo(taskSpecs(), ctx.served);
  app.get('/api/models', async () => models);
}
