// Streaming a sampling run to the client as Server-Sent Events (@fastify/sse does the protocol):
// the run is this request's queued job; each sampler step is an event `step` (step-event.ts) sent
// as it is made, the answer an event `done`, a failure after the stream began (the job's time cap
// among them) an event `error` ({ error }); their types are api-types.ts's StreamEvent, the page's.
// Until the first step the request can still be answered as any other: 400 for a puzzle the job
// refuses, 503 with Retry-After when the queue is full. A client that disconnects cancels its job
// at the next step. A job's compute never waits on its client: a step the client has no room for
// (it has not taken the events before: its socket's buffers are full) is skipped, not queued, and
// the job shown stalled meanwhile; a client that is behind is dropped (its job cancelled, its slot
// freed) at once when another job waits for a slot, else once it has taken nothing for `writeMs`.
// The `done` event, sent after the job has left its slot, waits up to `writeMs`.
import type { FastifyReply } from 'fastify';
import type { TrajectoryStep } from '../sampling/index.js';
import type { StreamEvent } from './api-types.js';
import type { ServeContext } from './context.js';
import { errorAnswer } from './http-error.js';
import { CancelledError, type JobState, JobTimeoutError, StalledClientError } from './job-queue.js';
import { queuedSteps, type StepRun } from './run-steps.js';
import { stepEvent } from './step-event.js';

/** An event of the stream, with its id (a step's index) where it has one. */
type Event = StreamEvent<unknown> & { id?: string };

/**
 * Sends one event and waits until the client has taken it: at most `writeMs`, after which the
 * connection is closed and StalledClientError thrown (the `done` and `error` events, after the
 * job).
 */
async function sendWithin(reply: FastifyReply, e: Event, writeMs: number): Promise<void> {
  const sent = reply.sse!.send(e); // writes at once; resolves when the socket has drained
  if (!reply.raw.writableNeedDrain) return sent;
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
  }
}

/**
 * A job's step events: each is written at once when the client has taken the ones before, else
 * skipped (the job goes on; it is shown stalled while its client is behind); a client behind
 * while another job waits for a slot, or for `writeMs`, is dropped (its connection closed,
 * StalledClientError thrown to end the job).
 */
function stepSender(ctx: ServeContext, reply: FastifyReply, writeMs: number) {
  let behindSince: number | null = null;
  return (event: () => Event, job: JobState): void => {
    if (reply.raw.writableNeedDrain) {
      behindSince ??= performance.now();
      job.stalled = true;
      const late = performance.now() - behindSince >= writeMs;
      if (!late && !ctx.queue.hasWaiting()) return; // this step is skipped
      reply.raw.destroy();
      throw new StalledClientError(writeMs);
    }
    behindSince = null;
    job.stalled = false;
    reply.sse!.send(event()).catch(() => {}); // written now; a closed connection cancels the job
  };
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
    const send = stepSender(ctx, reply, writeMs);
    const r = await queuedSteps(ctx, reply, run, (s, k, job) =>
      send(() => ({ event: 'step', id: String(k), data: stepEvent(s, k) }), job),
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
