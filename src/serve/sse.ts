// Streaming a sampling run to the client as Server-Sent Events (issue #15; @fastify/sse does
// the protocol): the run is this request's queued job; each sampler step is an event `step`
// (step-event.ts) sent as it is made, the answer an event `done`, a failure after the stream
// began an event `error` ({ error }). Until the first step the request can still be answered
// as any other: 400 for a puzzle the job refuses, 503 with Retry-After when the queue is full.
// A client that disconnects cancels its job at the next step.
import type { FastifyReply } from 'fastify';
import type { TrajectoryStep } from '../sample/index.js';
import { CancelledError, type JobQueue } from './job-queue.js';
import { queuedSteps } from './run-steps.js';
import { stepEvent } from './step-event.js';

/** Streams the run `start` makes; its result (the answer's JSON) is the `done` event. */
export async function streamSteps(
  queue: JobQueue,
  reply: FastifyReply,
  start: () => Generator<TrajectoryStep, unknown>,
): Promise<void> {
  const sse = reply.sse!;
  try {
    const r = await queuedSteps(queue, reply, start, (s, k) =>
      sse.send({ event: 'step', id: String(k), data: stepEvent(s, k) }),
    );
    await sse.send({ event: 'done', data: r });
  } catch (e) {
    if (!reply.raw.headersSent) throw e; // answered by the error handler
    if (!sse.isConnected || e instanceof CancelledError) return;
    const error = (e as Error).message.split('\n')[0];
    console.error(`sjd serve: a stream failed: ${error}`);
    await sse.send({ event: 'error', data: { error } });
  }
}
