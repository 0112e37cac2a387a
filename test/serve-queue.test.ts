// The job queue of `sjd serve` (src/serve/job-queue.ts) and the step runner
// (run-steps.ts): at most `concurrency` jobs run, at most `maxWaiting` wait, more are refused at
// once with a Retry-After, and one that waits `waitMs` without a slot is refused then; a waiting
// job whose signal aborts leaves the line without running; a
// failed job frees its slot; idle() waits for the drain; a stalled job is told from running
// ones, and dropped and timed-out jobs are counted. The runner lets the event loop turn
// between steps and stops a generator (its `finally` runs) when the signal aborts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import {
  CancelledError,
  JobQueue,
  JobTimeoutError,
  QueueFullError,
  StalledClientError,
} from '../src/serve/job-queue.js';
import { runSteps } from '../src/serve/run-steps.js';

/** A job that runs until released. */
function gate() {
  let release!: () => void;
  const opened = new Promise<void>((r) => {
    release = r;
  });
  return { job: async () => opened, release };
}

test('at most `concurrency` jobs run and `maxWaiting` wait; more are refused at once', async () => {
  const q = new JobQueue({ concurrency: 2, maxWaiting: 1 });
  const gates = [gate(), gate(), gate()];
  const runs = gates.map((g) => q.run(g.job));
  assert.deepEqual([q.stats().running, q.stats().waiting], [2, 1]);
  await assert.rejects(
    q.run(async () => 1),
    (e: unknown) => {
      assert.ok(e instanceof QueueFullError);
      assert.ok(e.retryAfterS >= 1 && e.retryAfterS <= 60);
      assert.match(e.message, /busy.*retry in \d+ s$/);
      return true;
    },
  );
  assert.equal(q.stats().refused, 1);
  gates[0]!.release();
  await runs[0];
  assert.deepEqual([q.stats().running, q.stats().waiting], [2, 0]); // the waiting job took the slot
  gates[1]!.release();
  gates[2]!.release();
  await Promise.all(runs);
  await q.idle();
  assert.deepEqual([q.stats().running, q.stats().done], [0, 3]);
});

test('a job that waits `waitMs` without a slot is refused then (QueueFullError), and leaves the line', async () => {
  const q = new JobQueue({ concurrency: 1, maxWaiting: 4, waitMs: 150 });
  const g = gate();
  const long = q.run(g.job);
  let ran = false;
  const t0 = performance.now();
  await assert.rejects(
    q.run(async () => {
      ran = true;
    }),
    (e: unknown) => {
      assert.ok(e instanceof QueueFullError);
      assert.match(
        e.message,
        /^the server is busy \(no job slot freed within 0\.15 s\); retry in \d+ s$/,
      );
      return true;
    },
  );
  const waited = performance.now() - t0;
  assert.ok(waited >= 140 && waited < 2000, `refused after ${waited} ms`);
  assert.deepEqual([q.stats().waiting, q.stats().refused, q.stats().wait_ms], [0, 1, 150]);
  // a job that gets its slot within the wait runs
  const next = q.run(async () => 8);
  setTimeout(g.release, 50);
  await long;
  assert.equal(await next, 8);
  assert.equal(ran, false);
  assert.throws(() => new JobQueue({ concurrency: 1, maxWaiting: 1, waitMs: 0 }), /wait must be/);
});

test('a waiting job whose client goes away leaves the line; a failed job frees its slot', async () => {
  const q = new JobQueue({ concurrency: 1, maxWaiting: 2 });
  const g = gate();
  const first = q.run(g.job);
  const ac = new AbortController();
  let ran = false;
  const waiting = q.run(async () => {
    ran = true;
  }, ac.signal);
  assert.equal(q.stats().waiting, 1);
  ac.abort();
  await assert.rejects(waiting, CancelledError);
  assert.equal(q.stats().waiting, 0);
  await assert.rejects(
    q.run(async () => 1, ac.signal),
    CancelledError,
  );
  g.release();
  await first;
  await assert.rejects(
    q.run(async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await q.run(async () => 7), 7);
  assert.equal(ran, false);
  assert.equal(q.stats().running, 0);
  assert.throws(() => new JobQueue({ concurrency: 0, maxWaiting: 1 }), /positive integer/);
});

test('a job says when it is stalled; the stats tell it from running ones and count drops and timeouts', async () => {
  const q = new JobQueue({ concurrency: 2, maxWaiting: 0 });
  const g = gate();
  const stalled = q.run(async (job) => {
    job.stalled = true;
    await g.job();
    throw new StalledClientError(100);
  });
  const running = gate();
  const other = q.run(running.job);
  assert.deepEqual([q.stats().running, q.stats().stalled], [1, 1]);
  g.release();
  await assert.rejects(stalled, /read nothing for 100 ms and was dropped/);
  running.release();
  await other;
  await assert.rejects(
    q.run(async () => {
      throw new JobTimeoutError(2000, 64);
    }),
    /time cap \(2\.0 s for 64 NFE\)/,
  );
  const s = q.stats();
  assert.deepEqual([s.running, s.stalled, s.dropped, s.timed_out, s.done], [0, 0, 1, 1, 3]);
  // runSteps stops with the abort's reason when it is a time cap
  const ac = new AbortController();
  ac.abort(new JobTimeoutError(10, 1));
  function* one() {
    yield 1;
  }
  await assert.rejects(runSteps(one(), ac.signal), JobTimeoutError);
});

test('runSteps turns the event loop between steps and stops the generator when cancelled', async () => {
  let stopped = false;
  function* count(): Generator<number, string> {
    try {
      for (let i = 0; i < 1000; i++) yield i;
      return 'done';
    } finally {
      stopped = true;
    }
  }
  const seen: number[] = [];
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 0);
  assert.equal(
    await runSteps(count(), new AbortController().signal, (s) => void seen.push(s)),
    'done',
  );
  clearInterval(ticker);
  assert.equal(seen.length, 1000);
  assert.ok(ticks > 0, 'timers ran while the steps ran');
  stopped = false;
  const ac = new AbortController();
  const run = runSteps(count(), ac.signal, async (s) => {
    if (s === 5) ac.abort();
  });
  await assert.rejects(run, CancelledError);
  assert.equal(stopped, true);
  await turn();
});
