// Streaming a sampling run to the client as Server-Sent Events (issue #15; @fastify/sse does
// the protocol): the run is this request's queued job; each sampler step is an event `step`
// (step-event.ts) sent as it is made, the answer an event `done`, a failure after the stream
// began (the job's time cap among them) an event `error` ({ error }); their types are
// api-types.ts's StreamEvent (issue #28), the page's. Until the first step the request can still
// be answered as any other: 400 for a puzzle the job refuses, 503 with Retry-After when the
// queue is full. A client that disconnects cancels its job at the next step; one that stops
// reading is dropped once a write has waited `writeMs` for it (its job is marked stalled
// meanwhile, then cancelled, and its slot freed).
import type { FastifyReply } from 'fastify';
import type { TrajectoryStep } from '../sampling/index.js';
import type { StreamEvent } from './api-types.js';
import type { ServeContext } from './context.js';
import { errorAnswer } from './errors.js';
import { CancelledError, type JobState, JobTimeoutError, StalledClientError } from './job-queue.js';
import { queuedSteps, type StepRun } from './run-steps.js';
import { stepEvent } from './step-event.js';

/** An event of the stream, with its id (a step's index) where it has one. */
type Event = StreamEvent<unknown> & { id?: string };

/**
 * Sends one event. When the client has not taken the ones before (the write waits for the
 * socket to drain) the job is stalled; after `writeMs` of that the connection is closed and
 * StalledClientError thrown.
 */
async function sendWithin(
  reply: FastifyReply,
  e: Event,
  writeMs: number,
  job?: JobState,
): Promise<void> {
  const sent = reply.sse!.send(e); // writes at once; resolves when the socket has drained
  if (!reply.raw.writableNeedDrain) return sent;
  if (job) job.stalled = true;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reply.raw.destroy(); // the client is dropped: its connection closes
      reject(new StalledClientError(writeMs));
    }, writeMs);
  });
  try {
    await Promise.race([sent, late]);
  } finally {
    clearTimeout(timer);
    if (job) job.stalled = false;
  }
}

/** Streams the run; its result (the answer's JSON) is the `done` event. */
export async function streamSteps(
  ctx: ServeContext,
  reply: FastifyReply,
  run: StepRun<TrajectoryStep, unknown>,
): Promise<void> {
  const sse = reply.sse!;
  const { writeMs } = ctx.deadlines;
  try {
    const r = await queuedSteps(ctx, reply, run, (s, k, job) =>
      sendWithin(reply, { event: 'step', id: String(k), data: stepEvent(s, k) }, writeMs, job),
    );
    await sendWithin(reply, { event: 'done', data: r }, writeMs);
  } catch (e) {
    if (!reply.raw.headersSent) throw e; // answered by the error handler
    if (!sse.isConnected || e instanceof CancelledError) return;
    const data = errorAnswer((e as Error).message);
    if (!(e instanceof JobTimeoutError)) console.error(`sjd serve: a stream failed: ${data.error}`);
    await sendWithin(reply, { event: 'error', data }, writeMs).catch(() => {});
  }
}
