// `sjd serve`: a web page that shows tokens sticking, over an HTTP API with streaming (fastify,
// Server-Sent Events), a bounded job queue and schema-checked requests.
export { GRIDS, LIMITS, TASKS } from './api-constants.js';
export type * from './api-types.js';
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
export { loadServedModels, type Served, SHIPPED_MODELS } from './models.js';
export { drainOnSignals, type RunningServer, type ServeOptions, startServer } from './server.js';
export { stepEvent } from './step-event.js';
export { DEFAULT_STREAMS_PER_CLIENT } from './stream-clients.js';
