// `sjd serve` on a busy machine: two CPU-bound processes run beside the server for the whole
// file, as other work would. The server's promise (docs/serve.md, "On a busy machine"): every
// request is answered, by its job or, when no slot frees within --queue-timeout or the waiting
// line is full, by 503 with Retry-After; a solve retried after it is answered once a slot frees;
// a time cap stops the solve it belongs to and no other. The caps are wall-clock, so the test
// sets them so far apart (by their NFE budgets) that any machine speed within a factor of a few
// hundred keeps the verdicts.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import {
  batch,
  EASY,
  EMPTY,
  got,
  modelsFolder,
  postSolve,
  reference,
  startServer,
  until,
} from './serve-fixture.js';

const models = modelsFolder(false);
const burners: ChildProcess[] = [];

before(() => {
  for (let i = 0; i < 2; i++)
    burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
});
after(() => {
  for (const b of burners) b.kill('SIGKILL');
});

test('a solve past its time cap: 503, and counted; the solve beside it in the batch gets its board', async () => {
  // caps: 1 ms + 0.5 ms an NFE: 41.5 ms for the blank board's 81 NFE (81 passes: late unless a
  // pass takes under 0.5 ms), 513 ms for the easy puzzle's 1024 (2 passes: in time unless a pass
  // takes over 250 ms)
  const s = await startServer({ models, deadlines: { jobMs: 1, jobMsPerNfe: 0.5 } });
  try {
    const [late, ok] = await Promise.all([
      postSolve(s, { puzzle: EMPTY, seed: 1, nfe: 81 }),
      postSolve(s, { puzzle: EASY, seed: 1 }),
    ]);
    assert.equal(late.status, 503, JSON.stringify(late));
    assert.match(late.error!, /^the job ran past its time cap \(42 ms for 81 NFE\)/);
    assert.equal(ok.status, 200, JSON.stringify(ok));
    assert.deepEqual(got(ok), reference(s, EASY, ok));
    await until(() => batch(s).batches === 0, 'the batch ends');
    assert.equal(s.ctx.queue.stats().timed_out, 1);
    assert.equal(batch(s).left, 1);
  } finally {
    await s.close();
  }
});

test('a slot held by a stream: solves get 503 with Retry-After within the wait, a retried one its board', {
  timeout: 120_000,
}, async () => {
  const s = await startServer({
    models,
    queue: { concurrency: 1, maxWaiting: 1, waitMs: 500 },
  });
  const holder = new AbortController();
  try {
    // a reading client's stream of 1024 steps holds the one slot until it is stopped
    const res = await fetch(
      `${s.url}/api/sudoku/stream?puzzle=${EMPTY}&sampler=confidence&nfe=1024&seed=2`,
      { headers: { accept: 'text/event-stream' }, signal: holder.signal },
    );
    assert.equal(res.status, 200);
    const reading = res.body!.pipeTo(new WritableStream()).catch(() => 'stopped');
    await until(() => s.ctx.queue.stats().running === 1, 'the stream runs');
    const t0 = performance.now();
    const busy = await Promise.all([0, 1].map((seed) => postSolve(s, { puzzle: EASY, seed })));
    const waited = (performance.now() - t0) / 1000;
    for (const a of busy) {
      assert.equal(a.status, 503, JSON.stringify(a));
      assert.match(
        a.error!,
        /^the server is busy \((all job slots|no job slot freed within 0\.5 s)/,
      );
      assert.ok(Number(a.retryAfter) >= 1, `Retry-After ${a.retryAfter}`);
    }
    // one waited its 0.5 s, the other was refused at once; neither waited for the stream
    assert.ok(waited < 10, `answered in ${waited.toFixed(1)} s`);
    holder.abort(); // the stream's client goes: its job stops at its next step
    assert.equal(await reading, 'stopped');
    let answer = await postSolve(s, { puzzle: EASY, seed: 0 });
    let tries = 1;
    for (; answer.status === 503 && tries < 5; tries++) {
      await new Promise((r) => setTimeout(r, 1000 * Number(answer.retryAfter)));
      answer = await postSolve(s, { puzzle: EASY, seed: 0 });
    }
    assert.equal(answer.status, 200, JSON.stringify(answer));
    assert.deepEqual(got(answer), reference(s, EASY, answer));
    assert.equal(s.ctx.queue.stats().refused, 2 + tries - 1);
  } finally {
    holder.abort();
    await s.close();
  }
});
