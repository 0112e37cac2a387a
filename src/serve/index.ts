// `sjd serve` (issue #15): a web page that shows tokens sticking, over an HTTP API with
// streaming (fastify, Server-Sent Events), a bounded job queue and schema-checked requests.
export { buildApp, DEFAULT_QUEUE, TIMEOUTS, WEB_ROOT } from './app.js';
export {
  CancelledError,
  JobQueue,
  QueueFullError,
  type QueueOptions,
  type QueueStats,
} from './job-queue.js';
export { loadServedModels, type Served, SHIPPED_MODELS, TASKS } from './models.js';
export { LIMITS } from './schemas.js';
export { drainOnSignals, type RunningServer, type ServeOptions, startServer } from './server.js';
export { type StepEvent, stepEvent } from './step-event.js';
