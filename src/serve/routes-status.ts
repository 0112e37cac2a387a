// The status API of `sjd serve` (issue #15): GET /health (cheap: never queued, so it answers
// while jobs run; the queue's state, running jobs told from those stalled on a client that does
// not read, the open streams, the resident memory and the event loop's delay since the start) and GET /api/models (what the page offers: each task's model, samplers and defaults,
// or why it is unavailable; the request limits; the difficulty classes of generated puzzles).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_RETRIES, DIFFICULTY_CLASSES } from '../tasks/sudoku/index.js';
import type { ServeContext } from './context.js';
import { TASKS } from './models.js';
import { LIMITS } from './schemas.js';

export function statusRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const started = performance.now();
  const loop = monitorEventLoopDelay({ resolution: 10 }); // how long the loop waits to turn
  loop.enable();
  app.addHook('onClose', async () => loop.disable());
  app.get('/health', async () => ({
    status: 'ok',
    uptime_s: Math.round((performance.now() - started) / 1000),
    rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20),
    loop_delay_ms: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    queue: ctx.queue.stats(),
    streams: ctx.streams.open(),
  }));

  const tasks = Object.fromEntries(
    TASKS.map((task) => {
      const m = ctx.served[task];
      if ('unavailable' in m) return [task, { available: false, reason: m.unavailable }];
      return [
        task,
        {
          available: true,
          source: m.source,
          process: m.process.config.preset,
          samplers: m.samplers,
          defaults: m.defaults,
          length: m.length,
          ...(m.geometry ? { geometry: m.geometry } : {}),
          ...(m.alphabet ? { alphabet: m.alphabet } : {}),
          ...(task === 'sudoku' ? { retries: DEFAULT_RETRIES } : {}), // a solve's (retry.ts)
        },
      ];
    }),
  );
  app.get('/api/models', async () => ({
    tasks,
    limits: LIMITS,
    difficulties: DIFFICULTY_CLASSES,
  }));
}
