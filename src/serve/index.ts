// `sjd serve` (issue #15): a web page that shows tokens sticking, over an HTTP API with
// streaming (fastify, Server-Sent Events), a bounded job queue and schema-checked requests.
export { type AppOptions, buildApp, DEFAULT_QUEUE, TIMEOUTS, WEB_ROOT } from './app.js';
export { DEFAULT_DEADLINES, type Deadlines, jobCapMs } from './deadlines.js';
export {
  CancelledError,
  JobQueue,
  JobTimeoutError,
  QueueFullError,
  type QueueOptions,
  type QueueStats,
  StalledClientError,
} from './job-queue.js';
export { loadServedModels, type Served, SHIPPED_MODELS, TASKS } from './models.js';
export { LIMITS } from './schemas.js';
export { drainOnSignals, type RunningServer, type ServeOptions, startServer } from './server.js';
export { type StepEvent, stepEvent } from './step-event.js';
export { DEFAULT_STREAMS_PER_CLIENT } from './stream-clients.js';
