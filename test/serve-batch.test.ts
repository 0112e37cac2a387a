// The shared batch of POST /api/sudoku/solve (src/serve/sudoku-batch.ts), on the shipped Sudoku
// model: concurrent solves of an adaptive sampler ride one refilled batch, one job of the queue,
// and take fewer passes than their NFE together, yet each gets the board, NFE and attempts it gets
// alone and that solveSudoku gives for [puzzle] with its seed (its own budget and retries too); a
// solve whose client goes away leaves the batch while the others finish (one past its time cap:
// serve-load.test.ts); a puzzle without a solution is refused (400) beside a solve that is answered; a batch
// seats at most its size (more start another job), and none while another job waits for a slot
// (the next batch waits its turn); a grid sampler's solve runs as its own job.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  batch,
  EMPTY,
  got,
  HARD,
  MEDIUM,
  modelsFolder,
  NO_SOLUTION,
  postSolve as post,
  reference,
  type Server,
  startServer,
  until,
} from './serve-fixture.js';

const models = modelsFolder(false);
let server: Server;

before(async () => {
  server = await startServer({ models });
});
after(() => server.close());

test('concurrent solves share one batch: each its board and NFE alone, fewer passes than their NFE', async () => {
  const s = server;
  const reqs = [
    { puzzle: EMPTY, seed: 1 }, // long: the others join it
    { puzzle: MEDIUM, seed: 3 },
    { puzzle: HARD, seed: 0 },
    { puzzle: HARD, seed: 5, nfe: 300, retries: 3 }, // its own budget and retries, the same batch
    { puzzle: MEDIUM, seed: 3 }, // the same row keys as the second's: answered apart
  ];
  const was = batch(s);
  const done = s.ctx.queue.stats().done;
  const first = post(s, reqs[0]);
  await until(() => batch(s).solves === 1, 'the first solve rides a batch');
  const answers = await Promise.all([first, ...reqs.slice(1).map((q) => post(s, q))]);
  assert.deepEqual(
    answers.map((a) => a.status),
    reqs.map(() => 200),
  );
  const now = batch(s);
  const nfe = answers.reduce((n, a) => n + a.nfe_used, 0);
  // a board's NFE is the passes it took part in; sharing them, the batch took fewer
  assert.equal(now.rows - was.rows, nfe);
  assert.ok(now.passes - was.passes < nfe, `${now.passes - was.passes} passes for ${nfe} NFE`);
  assert.equal(now.answered - was.answered, reqs.length);
  assert.deepEqual([now.batches, now.solves], [0, 0]);
  assert.equal(s.ctx.queue.stats().done - done, 1, 'the batch is one job');
  for (const [k, q] of reqs.entries()) {
    const a = answers[k]!;
    assert.deepEqual(got(a), reference(s, q.puzzle, a), `solve ${k}: not solveSudoku's`);
    assert.deepEqual(await post(s, q), a, `solve ${k}: not its answer alone`);
  }
  const health = (await (await fetch(`${s.url}/health`)).json()) as { sudoku_batch: unknown };
  assert.deepEqual(health.sudoku_batch, batch(s));
});

test('a solve whose client goes away leaves the batch at once; the other finishes', async () => {
  const s = server;
  const was = batch(s);
  const ac = new AbortController();
  const gone = post(s, { puzzle: EMPTY, seed: 1 }, ac.signal).then(
    () => 'answered',
    (e: Error) => e.name,
  );
  await until(() => batch(s).solves === 1, 'the first solve rides a batch');
  const other = post(s, { puzzle: MEDIUM, seed: 3 });
  await until(() => batch(s).solves === 2, 'the second joins it');
  ac.abort();
  assert.equal(await gone, 'AbortError');
  const a = await other;
  assert.equal(a.status, 200);
  assert.deepEqual(got(a), reference(s, MEDIUM, a));
  await until(() => batch(s).batches === 0, 'the batch ends');
  const now = batch(s);
  assert.deepEqual([now.left - was.left, now.answered - was.answered], [1, 1]);
  // the blank board alone takes about 150 passes: it left long before
  assert.ok(now.passes - was.passes < 60, `${now.passes - was.passes} passes`);
});

test('bad input: a 400 in one line; a puzzle without a solution is refused beside a solve', async () => {
  const s = server;
  const bad = await post(s, { puzzle: '123' });
  assert.deepEqual([bad.status, bad.error], [400, 'puzzle: puzzle has 3 characters, expected 81']);
  const [none, ok] = await Promise.all([
    post(s, { puzzle: NO_SOLUTION }),
    post(s, { puzzle: MEDIUM, seed: 3 }),
  ]);
  assert.deepEqual([none.status, none.error], [400, 'puzzle: puzzle has no solution']);
  assert.equal(ok.status, 200);
  assert.deepEqual(got(ok), reference(s, MEDIUM, ok));
});

test("a batch seats at most its size: more solves start another job; a grid sampler's runs alone", async () => {
  const s = await startServer({ models, sudokuBatch: 1 });
  try {
    const first = post(s, { puzzle: EMPTY, seed: 1 });
    await until(() => batch(s).solves === 1, 'the first solve rides a batch');
    const second = post(s, { puzzle: MEDIUM, seed: 3 });
    await until(() => batch(s).batches === 2, 'a second batch');
    assert.equal(s.ctx.queue.stats().running, 2);
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual(got(a), reference(s, EMPTY, a));
    assert.deepEqual(got(b), reference(s, MEDIUM, b));
    const now = batch(s);
    assert.equal(now.passes, now.rows, 'a batch of one shares no pass');
    assert.equal(s.ctx.queue.stats().done, 2);
    const c = await post(s, { puzzle: MEDIUM, sampler: 'confidence' as const, nfe: 32, seed: 7 });
    assert.equal(c.status, 200);
    assert.deepEqual(got(c), reference(s, MEDIUM, c));
    assert.deepEqual(batch(s), now, 'the grid sampler ran outside the batch');
    assert.equal(s.ctx.queue.stats().done, 3);
  } finally {
    await s.close();
  }
});

test('a running batch seats no new solve while another job waits: the next batch waits its turn', async () => {
  // a long wait for a slot: the second batch waits out the first and the stream
  const s = await startServer({ models, queue: { concurrency: 1, maxWaiting: 2, waitMs: 60_000 } });
  try {
    const first = post(s, { puzzle: EMPTY, seed: 1 });
    await until(() => batch(s).solves === 1, 'the first solve rides a batch');
    const stream = fetch(`${s.url}/api/sudoku/stream?puzzle=${MEDIUM}&sampler=confidence&nfe=8`, {
      headers: { accept: 'text/event-stream' },
    }).then((r) => r.text());
    await until(() => s.ctx.queue.stats().waiting === 1, 'the stream waits for the slot');
    const second = post(s, { puzzle: MEDIUM, seed: 3 });
    await until(() => batch(s).batches === 2, 'a second batch');
    assert.deepEqual([s.ctx.queue.stats().running, s.ctx.queue.stats().waiting], [1, 2]);
    const [a, events, b] = await Promise.all([first, stream, second]);
    assert.deepEqual(got(a), reference(s, EMPTY, a));
    assert.match(events, /event: done/);
    assert.deepEqual(got(b), reference(s, MEDIUM, b));
    assert.equal(s.ctx.queue.stats().done, 3);
  } finally {
    await s.close();
  }
});
