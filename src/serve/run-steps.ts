// Running a sampler's steps inside a server job: the step generator (sampling/driver.ts
// `sampleSteps` and the tasks' stepwise runs) is advanced one step at a time, and between steps the
// event loop turns (setImmediate) so health checks, other requests, other jobs' steps and the
// tensors' finalisers get their turn: no step-free stretch blocks the loop for longer than one
// sampler step. A client that disconnects aborts its job's signal, and so does the job's time cap
// (deadlines.ts); the job stops at the next step and the generator's `return()` frees the tensors
// it holds.
import { setImmediate as turn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { ServeContext } from './context.js';
import { jobCapMs } from './deadlines.js';
import { CancelledError, type JobState, JobTimeoutError } from './job-queue.js';

/** Why a run stopped: the signal's reason when it is one of ours, else a cancellation. */
const stopReason = (signal: AbortSignal): Error =>
  signal.reason instanceof CancelledError || signal.reason instanceof JobTimeoutError
    ? signal.reason
    : new CancelledError();

/**
 * Drains `steps`, calling `onStep(step, k)` for each (k from 0); returns the generator's result.
 * Once `signal` has aborted, stops the generator and throws its reason (CancelledError or
 * JobTimeoutError; a CancelledError for any other).
 */
export async function runSteps<Y, R>(
  steps: Generator<Y, R>,
  signal: AbortSignal,
  onStep?: (step: Y, k: number) => void | Promise<void>,
): Promise<R> {
  // A write held up by backpressure on a connection that then closes never finishes: the abort
  // ends the wait.
  const aborted = new Promise<void>((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  try {
    for (let k = 0; ; k++) {
      await turn();
      if (signal.aborted) throw stopReason(signal);
      const r = steps.next();
      if (r.done) return r.value;
      await Promise.race([onStep?.(r.value, k), aborted]);
    }
  } finally {
    steps.return(undefined as R); // frees a run stopped early; nothing once it is done
  }
}

/** A signal that aborts when the response's connection closes before the response is finished. */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) ac.abort(new CancelledError());
  });
  return ac.signal;
}

/** A sampling run asked for: its NFE budget (its time cap scales with it) and its steps. */
export interface StepRun<Y, R> {
  nfe: number;
  start: () => Generator<Y, R>;
}

/**
 * A stepwise run as this request's job in the queue: `run.start` (which may refuse the request
 * by throwing before the first step) is called once a slot is free; the run stops when the
 * client disconnects (CancelledError) or at its time cap (JobTimeoutError), counted from the
 * moment it got its slot. `onStep` gets the job's state too (a stream marks it stalled).
 */
export function queuedSteps<Y, R>(
  ctx: ServeContext,
  reply: FastifyReply,
  run: StepRun<Y, R>,
  onStep?: (step: Y, k: number, job: JobState) => void | Promise<void>,
): Promise<R> {
  const signal = disconnectSignal(reply);
  return ctx.queue.run(async (job) => {
    const capMs = jobCapMs(ctx.deadlines, run.nfe);
    const cap = new AbortController();
    const timer = setTimeout(() => cap.abort(new JobTimeoutError(capMs, run.nfe)), capMs);
    try {
      return await runSteps(
        run.start(),
        AbortSignal.any([signal, cap.signal]),
        onStep && ((s, k) => onStep(s, k, job)),
      );
    } finally {
      clearTimeout(timer);
    }
  }, signal);
}
