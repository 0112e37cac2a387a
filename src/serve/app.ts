// The fastify application of `sjd serve`: the served models and the job queue, the request limits
// (body size, timeouts), the deadlines (a stream's write, a job's time cap), the per-client stream
// limit and the seats of Sudoku's shared solve batch, zod validation and one-line JSON errors, the
// page's static files from web/ (@fastify/static, which keeps every path inside that folder), the
// Server-Sent Events plugin, and the routes (status, Sudoku, text and images). No CORS headers are
// sent: the page and its API share one origin; a request must name this server in its Host header
// (host-header.ts), so a page of another site cannot reach it by rebinding its name.
import type { FastifyInstance } from 'fastify';
import type { PrecisionSetting } from '../model/auto-precision.js';
import { defaultSudokuBatch } from '../tasks/sudoku/solve-defaults.js';
import { LIMITS } from './api-constants.js';
import type { ServeContext } from './context.js';
import { type Deadlines, deadlinesOf } from './deadlines.js';
import {
  clientErrorHandler,
  errorHandler,
  frameworkErrors,
  notFoundHandler,
  oneErrorShape,
} from './errors.js';
import { hostRefusal } from './host-header.js';
import { HttpError } from './http-error.js';
import { DEFAULT_WAIT_MS, JobQueue, type QueueOptions } from './job-queue.js';
import { loadServedModels, SHIPPED_MODELS } from './models.js';
import { sampleRoutes } from './routes-sample.js';
import { statusRoutes } from './routes-status.js';
import { sudokuRoutes } from './routes-sudoku.js';
import { zodValidator } from './schemas.js';
import { DEFAULT_STREAMS_PER_CLIENT, StreamClients } from './stream-clients.js';
import { SudokuBatches } from './sudoku-batch.js';

/** The page: web/index.html, its style sheet and its scripts compiled into web/dist/. */
export const WEB_ROOT = new URL('../../../web', import.meta.url).pathname;

export const DEFAULT_QUEUE: QueueOptions = {
  concurrency: 2,
  maxWaiting: 8,
  waitMs: DEFAULT_WAIT_MS,
};

export const TIMEOUTS = {
  requestMs: 10_000, // to receive a whole request
  idleMs: 120_000, // a connection with nothing sent either way (a stream sends each step)
  keepAliveMs: 5_000, // an idle keep-alive connection between requests
  heartbeatMs: 15_000, // a comment on an open stream
};

export interface AppOptions {
  host?: string; // the address listened on, which a Host header may name (default 127.0.0.1)
  models?: string; // the models folder (default: the package's models/)
  precision?: PrecisionSetting; // the networks' compute precision (default: SJD_PRECISION, else auto)
  queue?: QueueOptions;
  deadlines?: Partial<Deadlines>; // (default: DEFAULT_DEADLINES)
  streamsPerClient?: number; // open streams a remote address may hold (default 2)
  sudokuBatch?: number; // boards a shared solve batch seats (default: defaultSudokuBatch())
  log?: boolean; // fastify's request log on stdout
}

/** The server's context: the models, the job queue, the deadlines, the streams, the solve batches. */
function contextOf(o: AppOptions): ServeContext {
  const queue = new JobQueue(o.queue ?? DEFAULT_QUEUE);
  const deadlines = deadlinesOf(o.deadlines);
  return {
    served: loadServedModels(o.models ?? SHIPPED_MODELS, o.precision),
    queue,
    deadlines,
    streams: new StreamClients(o.streamsPerClient ?? DEFAULT_STREAMS_PER_CLIENT),
    sudokuBatches: new SudokuBatches(queue, deadlines, o.sudokuBatch ?? defaultSudokuBatch()),
  };
}

/**
 * The hooks every request passes: its Host must name this server (DNS rebinding: 403, none: 400),
 * and once the server is closing it gets 503 and its connection closes.
 */
function guardRequests(app: FastifyInstance, listen: string): void {
  app.addHook('onRequest', async (req) => {
    const refused = hostRefusal(req.headers.host, listen);
    if (refused) throw new HttpError(req.headers.host?.trim() ? 403 : 400, refused);
  });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_req, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new HttpError(503, 'the server is stopping');
  });
}

export async function buildApp(
  o: AppOptions = {},
): Promise<{ app: FastifyInstance; ctx: ServeContext }> {
  const ctx = contextOf(o);
  // the web server's packages load with the first app, not with the library (lazy-require.ts)
  const [{ default: Fastify }, { fastifySSE }, { default: fastifyStatic }] = await Promise.all([
    import('fastify'),
    import('@fastify/sse'),
    import('@fastify/static'),
  ]);
  const app = Fastify({
    logger: o.log === true,
    bodyLimit: LIMITS.bodyBytes,
    requestTimeout: TIMEOUTS.requestMs,
    connectionTimeout: TIMEOUTS.idleMs,
    keepAliveTimeout: TIMEOUTS.keepAliveMs,
    return503OnClosing: false, // answered below, in the one error shape
    frameworkErrors,
    clientErrorHandler: (err, socket) => clientErrorHandler(err, socket, TIMEOUTS.requestMs),
    // a request without a Host header is answered below, in the one error shape, not by Node;
    // Node checks the deadlines every second, not every 30 s; and its headersTimeout, left at
    // its default, held a body trickled after complete headers for 60 s: the server is made with
    // it at the request deadline, so a whole request, its body too, is cut at 10 s
    http: {
      requireHostHeader: false,
      connectionsCheckingInterval: 1000,
      headersTimeout: TIMEOUTS.requestMs,
    },
  });
  app.setValidatorCompiler(zodValidator);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  app.addHook('preSerialization', oneErrorShape);
  guardRequests(app, o.host ?? '127.0.0.1');
  await app.register(fastifySSE, { heartbeatInterval: TIMEOUTS.heartbeatMs });
  await app.register(fastifyStatic, { root: WEB_ROOT, index: 'index.html', dotfiles: 'deny' });
  statusRoutes(app, ctx);
  sudokuRoutes(app, ctx);
  sampleRoutes(app, ctx);
  return { app, ctx };
}
