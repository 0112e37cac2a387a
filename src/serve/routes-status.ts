// The status API of `sjd serve` (issue #15): GET /health (cheap: never queued, so it answers
// while jobs run, with the queue's state) and GET /api/models (what the page offers: each task's
// model, samplers and defaults, or why it is unavailable; the request limits; the difficulty
// classes of generated puzzles).
import type { FastifyInstance } from 'fastify';
import { DIFFICULTY_CLASSES } from '../tasks/sudoku/index.js';
import type { ServeContext } from './context.js';
import { TASKS } from './models.js';
import { LIMITS } from './schemas.js';

export function statusRoutes(app: FastifyInstance, ctx: ServeContext): void {
  const started = performance.now();
  app.get('/health', async () => ({
    status: 'ok',
    uptime_s: Math.round((performance.now() - started) / 1000),
    queue: ctx.queue.stats(),
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
