// How `sjd serve` answers a failed request: always JSON `{ "error": "<one line>" }` with the status
// of its kind: 400 for a request its schema or the puzzle check refuses (with fastify's own 4xx for
// an unparsable or oversized body, a wrong content type), 404 for an unknown path or a task without
// a model, 429 for a client with too many open streams, 503 with Retry-After when the job queue is
// full, 503 for a job stopped at its time cap or a request that arrives while the server stops, 499
// (nothing is sent) for a client that went away; 500 for anything else, logged on stderr. The
// errors that fastify, Node's HTTP parser and the plugins answer themselves (a bad URL, a request
// that cannot be parsed or whose headers are too large, a request that took too long, 406 from the
// SSE plugin) get the same shape (ErrorAnswer, api-types.ts).
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorAnswer, firstLine, HttpError } from './http-error.js';
import { CancelledError, JobTimeoutError, QueueFullError } from './job-queue.js';

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof QueueFullError)
    return reply
      .code(503)
      .header('retry-after', String(err.retryAfterS))
      .send(errorAnswer(err.message));
  if (err instanceof CancelledError) return reply.code(499).send(errorAnswer(err.message));
  if (err instanceof JobTimeoutError) return reply.code(503).send(errorAnswer(err.message));
  if (err instanceof HttpError) return reply.code(err.statusCode).send(errorAnswer(err.message));
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return reply.code(status).send(errorAnswer(err.message));
  console.error(`sjd serve: ${request.method} ${request.url}: ${err.stack ?? err.message}`);
  return reply.code(500).send(errorAnswer(`internal error: ${err.message}`));
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply
    .code(404)
    .send(errorAnswer(`no such path: ${request.method} ${request.url.split('?')[0]}`));
}

/** fastify's `frameworkErrors`: a URL it cannot decode (400) and the like, before any route. */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  return reply.code(err.statusCode ?? 400).send(errorAnswer(err.message));
}

/** A body in the shape fastify's own errors have: `{ statusCode, error, message }`. */
const isFastifyErrorBody = (p: unknown): p is { statusCode: number; message: string } =>
  typeof p === 'object' &&
  p !== null &&
  typeof (p as { statusCode?: unknown }).statusCode === 'number' &&
  typeof (p as { message?: unknown }).message === 'string';

/** A preSerialization hook: an error body a plugin sends itself (406 from @fastify/sse) in our shape. */
export async function oneErrorShape(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode >= 400 && isFastifyErrorBody(payload)) return errorAnswer(payload.message);
  return payload;
}

/**
 * Node's `clientError` (fastify's `clientErrorHandler`): a request the HTTP parser refuses, whose
 * headers are too large (431) or that did not arrive in time (408); answered, then closed.
 */
export function clientErrorHandler(
  err: Error & { code?: string },
  socket: Socket,
  requestMs: number,
): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, error] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, `the request did not arrive within ${requestMs / 1000} s`]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'the request headers are too large']
        : [400, `a malformed HTTP request (${err.code ?? firstLine(err.message)})`];
  const body = JSON.stringify(errorAnswer(error));
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(err);
}
