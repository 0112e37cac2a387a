// Running a sampler's steps inside a server job (issue #15): the step generator (sample/driver.ts
// `sampleSteps` and the tasks' stepwise runs) is advanced one step at a time, and between steps
// the event loop turns (setImmediate) so health checks, other requests, other jobs' steps and
// the tensors' finalisers get their turn: no step-free stretch blocks the loop for longer than
// one sampler step. A client that disconnects aborts its job's signal; the job stops at the next
// step and the generator's `return()` frees the tensors it holds.
import { setImmediate as turn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { CancelledError, type JobQueue } from './job-queue.js';

/**
 * Drains `steps`, calling `onStep(step, k)` for each (k from 0); returns the generator's result.
 * Throws CancelledError once `signal` has aborted, after stopping the generator.
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
      if (signal.aborted) throw new CancelledError();
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
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}

/**
 * A stepwise run as this request's job in the queue: `start` (which may refuse the request by
 * throwing before the first step) is called once a slot is free, and the run stops when the
 * client disconnects.
 */
export function queuedSteps<Y, R>(
  queue: JobQueue,
  reply: FastifyReply,
  start: () => Generator<Y, R>,
  onStep?: (step: Y, k: number) => void | Promise<void>,
): Promise<R> {
  const signal = disconnectSignal(reply);
  return queue.run(() => runSteps(start(), signal, onStep), signal);
}
