// `sjd serve` against clients that would hold its job slots: a client that opens an event stream
// and stops reading is dropped once a write has waited `writeMs` for it, its job cancelled and
// its slot freed, while /health (which tells the stalled job from running ones) and a solve keep
// answering; one remote address holds at most `streamsPerClient` open streams (429 beyond, with
// the one error shape); a job stops at its wall-clock cap (jobMs + jobMsPerNfe x NFE): 503 for a
// POST, an `error` event on a stream.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import {
  DEFAULT_DEADLINES,
  type ErrorAnswer,
  type HealthAnswer,
  jobCapMs,
} from '../src/serve/index.js';
import { EASY, modelsFolder, readUntil, sseEvents, startServer } from './serve-fixture.js';

const models = modelsFolder(true);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Server = Awaited<ReturnType<typeof startServer>>;

const health = async (s: Server) => (await (await fetch(`${s.url}/health`)).json()) as HealthAnswer;

const solve = (s: Server) =>
  fetch(`${s.url}/api/sudoku/solve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ puzzle: EASY, nfe: 8 }),
  });

test('a client that stops reading is dropped within the write deadline, and its slot freed', async () => {
  const writeMs = 500;
  const s = await startServer({
    models,
    queue: { concurrency: 2, maxWaiting: 0 },
    deadlines: { writeMs },
  });
  // A raw connection that asks for a long stream and never reads: the server fills the socket's
  // buffers, then waits for the client.
  const sock = connect(s.port, '127.0.0.1');
  try {
    await once(sock, 'connect');
    sock.pause();
    sock.write(
      'GET /api/image/stream?n=4&nfe=1024&seed=0 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n',
    );
    const t0 = performance.now();
    let q = (await health(s)).queue;
    while (q.stalled !== 1) {
      assert.ok(performance.now() - t0 < 60_000, `never stalled: ${JSON.stringify(q)}`);
      assert.equal(q.done, 0, 'the stream ran to its end before it stalled');
      await sleep(20);
      q = (await health(s)).queue;
    }
    const stalledAt = performance.now();
    assert.equal(q.running, 0, 'a stalled job is not counted as running');
    // meanwhile the server answers: /health above, and a solve in the other slot
    const answer = await solve(s);
    assert.equal(answer.status, 200);
    while (q.stalled + q.running > 0) {
      assert.ok(
        performance.now() - stalledAt < writeMs + 5000,
        `the slot was not freed: ${JSON.stringify(q)}`,
      );
      await sleep(20);
      q = (await health(s)).queue;
    }
    assert.equal(q.dropped, 1);
    assert.equal((await health(s)).streams, 0);
    // both slots free again: two solves at once run
    const both = await Promise.all([solve(s), solve(s)]);
    assert.deepEqual(
      both.map((r) => r.status),
      [200, 200],
    );
  } finally {
    sock.destroy();
    await s.close();
  }
});

test('one client holds at most streamsPerClient open streams: 429 beyond', async () => {
  const s = await startServer({ models, streamsPerClient: 1 });
  try {
    const ac = new AbortController();
    const first = await fetch(`${s.url}/api/text/stream?n=1&nfe=1024`, {
      headers: { accept: 'text/event-stream' },
      signal: ac.signal,
    });
    await readUntil(first, (t) => t.includes('event: step'));
    const second = await fetch(`${s.url}/api/sudoku/stream?puzzle=${EASY}`, {
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(second.status, 429);
    assert.deepEqual(await second.json(), {
      error: 'too many open streams from 127.0.0.1 (1 at most); close one first',
    });
    assert.equal((await solve(s)).status, 200, 'a POST is not a stream');
    ac.abort();
    const t0 = performance.now();
    while ((await health(s)).streams > 0) {
      assert.ok(performance.now() - t0 < 5000, 'the closed stream still counts');
      await sleep(20);
    }
    const third = await fetch(`${s.url}/api/sudoku/stream?puzzle=${EASY}&nfe=8`, {
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(third.status, 200);
    assert.ok(sseEvents(await third.text()).some((e) => e.event === 'done'));
  } finally {
    await s.close();
  }
});

test("a job's time cap scales with its NFE; a job past it stops: 503, or an error event", async () => {
  const d = { ...DEFAULT_DEADLINES, jobMs: 1000, jobMsPerNfe: 2 };
  assert.equal(jobCapMs(d, 8), 1016);
  assert.equal(jobCapMs(d, 1024), 3048);
  assert.ok(jobCapMs(DEFAULT_DEADLINES, 1024) > jobCapMs(DEFAULT_DEADLINES, 64));
  const s = await startServer({ models, deadlines: { jobMs: 300, jobMsPerNfe: 0 } });
  try {
    const post = await fetch(`${s.url}/api/text/sample`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ n: 4, nfe: 1024 }),
    });
    assert.equal(post.status, 503);
    assert.match(
      ((await post.json()) as ErrorAnswer).error,
      /^the job ran past its time cap \(300 ms for 1024 NFE\)/,
    );
    const stream = await fetch(`${s.url}/api/text/stream?n=4&nfe=1024`, {
      headers: { accept: 'text/event-stream' },
    });
    assert.equal(stream.status, 200);
    const events = sseEvents(await stream.text());
    assert.match((events.at(-1)!.data as ErrorAnswer).error, /time cap/);
    assert.equal(events.at(-1)!.event, 'error');
    const q = (await health(s)).queue;
    assert.deepEqual([q.timed_out, q.running, q.stalled], [2, 0, 0]);
  } finally {
    await s.close();
  }
});
