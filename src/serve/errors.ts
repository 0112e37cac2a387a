// How `sjd serve` answers a failed request (issue #15): always JSON `{ "error": "<one line>" }`
// with the status of its kind: 400 for a request its schema or the puzzle check refuses (with
// fastify's own 4xx for an unparsable or oversized body, a wrong content type), 404 for an
// unknown path or a task without a model, 429 for a client with too many open streams, 503 with
// Retry-After when the job queue is full, 503 for a job stopped at its time cap, 499 (nothing is
// sent) for a client that went away; 500 for anything else, logged on stderr.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CancelledError, JobTimeoutError, QueueFullError } from './job-queue.js';

/** An error with the status it answers with. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

const firstLine = (s: string) => s.split('\n')[0]!;

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof QueueFullError)
    return reply
      .code(503)
      .header('retry-after', String(err.retryAfterS))
      .send({ error: err.message });
  if (err instanceof CancelledError) return reply.code(499).send({ error: err.message });
  if (err instanceof JobTimeoutError) return reply.code(503).send({ error: err.message });
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return reply.code(status).send({ error: firstLine(err.message) });
  console.error(`sjd serve: ${request.method} ${request.url}: ${err.stack ?? err.message}`);
  return reply.code(500).send({ error: `internal error: ${firstLine(err.message)}` });
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .send({ error: `no such path: ${request.method} ${request.url.split('?')[0]}` });
}
