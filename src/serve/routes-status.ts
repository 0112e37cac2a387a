// The status API of `sjd serve`: GET /health (cheap: never queued, so it answers while jobs run;
// the queue's state, running jobs told from those stalled on a client that does not read, Sudoku's
// shared solve batches, the open streams, the resident memory and the event loop's delay since the
// start) and GET /api/models (what the page offers: each task's model, samplers and defaults, or
// why it is unavailable; the request limits; the difficulty classes of generated puzzles). Both
// answers are typed by api-types.ts, the page's types.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { type TaskSpec, taskSpecs } from '../tasks/registry.js';
import { DIFFICULTY_CLASSES } from '../tasks/sudoku/index.js';
import { LIMITS } from './api-constants.js';
import type { HealthAnswer, ModelsInfo, ServedTask, TaskInfo } from './api-types.js';
import type { ServeContext } from './context.js';
import type { Served } from './models.js';

/** What /api/models tells of a task: its model, samplers and defaults, or why it has none. */
function taskInfo(spec: TaskSpec, m: Served[string]): TaskInfo {
  if (!m || 'unavailable' in m) return { available: false, reason: m?.unavailable ?? 'not loaded' };
  return {
    available: true,
    source: m.source,
    process: m.process.config.name,
    samplers: m.samplers,
    defaults: m.defaults,
    length: m.length,
    ...(m.geometry ? { geometry: m.geometry } : {}),
    ...(m.alphabet ? { alphabet: m.alphabet } : {}),
    ...(m.pieces ? { pieces: m.pieces } : {}),
    ...(spec.apiInfo as Partial<ServedTask>), // Sudoku: a solve's retries
  };
}

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

  const models: ModelsInfo = {
    tasks: Object.fromEntries(
      taskSpecs().map((spec) => [spec.name, taskInfo(spec, ctx.served[spec.name])]),
    ) as ModelsInfo['tasks'],
    limits: LIMITS,
    difficulties: DIFFICULTY_CLASSES,
  };
  app.get('/api/models', async () => models);
}
