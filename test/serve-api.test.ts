// The API of `sjd serve` against a server on an ephemeral loopback port, with the
// shipped Sudoku model and tiny text and image models trained here: status and models; a solve
// (JSON and streamed) is `sjd solve`'s answer for the same seed and settings, a text sample is
// `sjd sample text`'s; the stream sends its first step at once and several steps; bad requests
// get a 4xx with a one-line reason and start no job (a body's numbers must be JSON numbers);
// every error, fastify's own too, is `{"error": "<one line>"}`; what the API shows names no
// absolute path; a full queue answers 503 with Retry-After; a client that disconnects cancels
// its job; static files cannot escape web/; no CORS headers.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { resolvePrecision } from '../src/model/auto-precision.js';
import type { StepEvent } from '../src/serve/index.js';
import {
  classifyPuzzles,
  DEFAULT_ADAPTIVE_NFE,
  DEFAULT_RETRIES,
  parseBoard,
} from '../src/tasks/sudoku/index.js';
import {
  EASY,
  HARD,
  MEDIUM,
  modelsFolder,
  NO_SOLUTION,
  readUntil,
  type SseEvent,
  sjdAsync,
  sseEvents,
  startServer,
} from './serve-fixture.js';

const models = modelsFolder(true);
let server: Awaited<ReturnType<typeof startServer>>;

before(async () => {
  server = await startServer({ models });
});
after(() => server.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

/** The queue's counters (GET /health). */
const health = async () =>
  (await json(await fetch(`${server.url}/health`))).queue as Record<string, number>;

/** Waits until no job runs or waits (a cancelled job ends at its next step). */
async function idle(): Promise<void> {
  while ((await health()).running > 0) await new Promise((r) => setTimeout(r, 10));
}

const stream = async (path: string, query: Record<string, string | number | boolean>) => {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const res = await fetch(`${server.url}${path}?${q}`, {
    headers: { accept: 'text/event-stream' },
  });
  return { res, events: res.ok ? sseEvents(await res.text()) : [] };
};

const steps = (events: SseEvent[]) => events.filter((e) => e.event === 'step');
const done = (events: SseEvent[]) =>
  events.find((e) => e.event === 'done')?.data as Record<string, unknown>;

test('/health and /api/models: every task served, with its samplers and defaults', async () => {
  const h = await fetch(`${server.url}/health`);
  assert.equal(h.status, 200);
  assert.equal((await json(h)).status, 'ok');
  const m = await json(await fetch(`${server.url}/api/models`));
  const tasks = m.tasks as Record<string, Record<string, unknown>>;
  assert.equal(tasks.sudoku!.available, true);
  // sjd solve's defaults: Sudoku's rules, the sampler that undoes what breaks them (served for
  // Sudoku only: the other tasks have no rules to undo by)
  assert.deepEqual(tasks.sudoku!.defaults, {
    sampler: 'adaptive-remask' as const,
    nfe: DEFAULT_ADAPTIVE_NFE,
    temperature: 1,
    topP: 1,
    grid: 'cosine',
    rules: true,
  });
  assert.equal(tasks.sudoku!.retries, DEFAULT_RETRIES);
  assert.equal(tasks.text!.retries, undefined);
  assert.ok(!(tasks.sudoku!.samplers as string[]).includes('mdlm'));
  assert.ok((tasks.sudoku!.samplers as string[]).includes('adaptive-remask'));
  assert.ok(!(tasks.text!.samplers as string[]).includes('adaptive-remask'));
  assert.equal((tasks.text!.defaults as Record<string, unknown>).rules, undefined);
  assert.equal(tasks.text!.available, true);
  assert.equal(tasks.text!.alphabet, 'abcdefghijklmnopqrstuvwxyz ');
  assert.deepEqual(tasks.image!.geometry, { height: 8, width: 8, channels: 3, levels: 16 });
  assert.deepEqual(m.difficulties, ['singles', 'beyond-singles', 'guessing']);
  assert.equal(tasks.sudoku!.source, 'sudoku/model.safetensors');
  // each model's process by name (config.json's process.name; the shipped Sudoku model's is sjd)
  assert.equal(tasks.sudoku!.process, 'sjd');
  assert.equal(tasks.image!.process, 'sjd');
  // each model's compute precision as served: the default setting's (SJD_PRECISION, else auto)
  for (const task of ['sudoku', 'text', 'image'])
    assert.equal(tasks[task]!.precision, resolvePrecision(undefined, task).precision, task);
  assert.deepEqual(absolutePaths(m), []);
});

/** Every string in a JSON value that holds an absolute path. */
function absolutePaths(v: unknown): string[] {
  if (typeof v === 'string') return /(^|[\s'"(])\/\w/.test(v) || v.includes(models) ? [v] : [];
  if (typeof v !== 'object' || v === null) return [];
  return Object.values(v).flatMap(absolutePaths);
}

test('a task without a model, or with one that does not load, is unavailable; no absolute path shown', async () => {
  const dir = modelsFolder(false);
  mkdirSync(join(dir, 'image'));
  writeFileSync(join(dir, 'image', 'config.json'), '{ not json');
  const s = await startServer({ models: dir, precision: 'bfloat16' });
  try {
    const m = await json(await fetch(`${s.url}/api/models`));
    const tasks = m.tasks as Record<string, Record<string, unknown>>;
    assert.equal(tasks.sudoku!.precision, 'bfloat16'); // the server's setting, asked
    assert.equal(tasks.text!.available, false);
    assert.equal(tasks.text!.reason, 'no text model in text/');
    assert.equal(tasks.image!.available, false);
    assert.match(tasks.image!.reason as string, /^image\/: image\/config\.json: not valid JSON/);
    assert.deepEqual(absolutePaths(m), []);
    assert.ok(!JSON.stringify(m).includes(dir));
    const r = await fetch(`${s.url}/api/text/sample`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(r.status, 404);
    assert.deepEqual(await json(r), { error: 'text is unavailable: no text model in text/' });
  } finally {
    await s.close();
  }
});

test('a solve gives the answer of sjd solve for the same seed and settings, JSON and streamed', async () => {
  for (const o of [
    { sampler: 'confidence' as const, nfe: 32, seed: 7, temperature: 1, rules: false },
    { sampler: 'adaptive' as const, nfe: 64, seed: 3, temperature: 0.8, rules: false },
    { sampler: 'adaptive-remask' as const, nfe: 64, seed: 3, temperature: 0.8, rules: true },
  ]) {
    const cli = await sjdAsync(
      'solve',
      MEDIUM,
      '--sampler',
      o.sampler,
      '--nfe',
      String(o.nfe),
      '--seed',
      String(o.seed),
      '--temperature',
      String(o.temperature),
      o.rules ? '--rules' : '--no-rules',
    );
    const board = /^\d{81}$/m.exec(cli.stdout)![0];
    const res = await post('/api/sudoku/solve', { puzzle: MEDIUM, ...o });
    assert.equal(res.status, 200);
    const a = await json(res);
    assert.equal(a.board, board, `${o.sampler}: API and CLI differ`);
    assert.equal(a.rules, o.rules);
    assert.equal(a.solved, cli.status === 0);
    assert.deepEqual(a.broken, { rows: [], columns: [], boxes: [] });
    const s = await stream('/api/sudoku/stream', { puzzle: MEDIUM, ...o });
    assert.equal(s.res.headers.get('content-type'), 'text/event-stream');
    assert.equal(done(s.events).board, board);
    const k = steps(s.events);
    assert.ok(k.length >= 3, `${k.length} steps`);
    const first = k[0]!.data as StepEvent;
    assert.equal(first.step, 0);
    assert.equal(first.tokens.length, 81);
    const last = k.at(-1)!.data as StepEvent;
    assert.equal(last.tokens.map((v) => v + 1).join(''), board);
    assert.ok(last.confidence.every((p) => p >= 0 && p <= 1));
  }
  // the defaults are sjd solve's (the rules, adaptive-remask, DEFAULT_ADAPTIVE_NFE, seed 0,
  // DEFAULT_RETRIES); without the rules, the adaptive sampler, as sjd solve --no-rules
  for (const rules of [true, false]) {
    const cli = await sjdAsync('solve', MEDIUM, rules ? '--rules' : '--no-rules');
    const board = /^\d{81}$/m.exec(cli.stdout)![0];
    const a = await json(await post('/api/sudoku/solve', { puzzle: MEDIUM, rules }));
    assert.deepEqual([a.board, a.sampler, a.rules], [board, cli.stdout.split(' ')[0], rules]);
  }
  const dflt = await json(await post('/api/sudoku/solve', { puzzle: MEDIUM }));
  assert.deepEqual(
    [dflt.sampler, dflt.rules, dflt.nfe],
    ['adaptive-remask', true, DEFAULT_ADAPTIVE_NFE],
  );
});

test('a solve retries as sjd solve does: the same attempts and board, steps on the puzzle itself', async () => {
  // HARD: the shipped model alone gets it wrong at first and solves it on a symmetric copy.
  const o = { sampler: 'adaptive' as const, nfe: 300, seed: 0, retries: 10, rules: false };
  const cli = await sjdAsync('solve', HARD, '--nfe', '300', '--retries', '10', '--no-rules');
  assert.equal(cli.status, 0, cli.stderr);
  const board = /^\d{81}$/m.exec(cli.stdout)![0];
  const [, used, attempts] = /: (\d+) NFE of 300 in (\d+) attempts$/m.exec(cli.stdout)!;
  const a = await json(await post('/api/sudoku/solve', { puzzle: HARD, ...o }));
  assert.deepEqual(
    [a.board, a.solved, a.nfe_used, a.attempts],
    [board, true, Number(used), Number(attempts)],
  );
  const s = await stream('/api/sudoku/stream', { puzzle: HARD, ...o });
  assert.equal(done(s.events).board, board);
  const k = steps(s.events).map((e) => e.data as StepEvent);
  // Every step, a retry's too, shows the clues where they are; NFE counts over the attempts,
  // and each retry starts again from the prior (t back up).
  for (const x of k)
    for (let i = 0; i < 81; i++)
      if (HARD[i] !== '0') assert.equal(x.tokens[i]! + 1, Number(HARD[i]));
  assert.ok(k.every((x, j) => j === 0 || x.nfe >= k[j - 1]!.nfe));
  assert.equal(k.at(-1)!.nfe, Number(used));
  assert.equal(k.filter((x, j) => j > 0 && x.t > k[j - 1]!.t).length, Number(attempts) - 1);
  assert.equal(
    k
      .at(-1)!
      .tokens.map((v) => v + 1)
      .join(''),
    board,
  );
});

test('the stream sends its first step within a second', async () => {
  const t0 = performance.now();
  const ac = new AbortController();
  const res = await fetch(`${server.url}/api/sudoku/stream?puzzle=${EASY}&sampler=sjd&nfe=200`, {
    headers: { accept: 'text/event-stream' },
    signal: ac.signal,
  });
  await readUntil(res, (t) => t.includes('event: step'));
  const ms = performance.now() - t0;
  ac.abort();
  assert.ok(ms < 1000, `first step after ${ms.toFixed(0)} ms`);
});

test('bad requests: 4xx with a one-line reason, and no job started', async () => {
  await idle();
  const before = (await health()).done;
  const cases: [unknown, number, RegExp][] = [
    [{ puzzle: '123' }, 400, /^puzzle: puzzle has 3 characters, expected 81$/],
    [{ puzzle: `${EASY.slice(0, 80)}x` }, 400, /^puzzle: puzzle has character 'x' at position 81$/],
    [{ puzzle: `55${EASY.slice(2)}` }, 400, /^puzzle: puzzle has '5' twice in row 1$/],
    [{ puzzle: EASY, sampler: 'nope' as const }, 400, /^sampler: expected one of .*adaptive/],
    [{ puzzle: EASY, sampler: 'mdlm' as const }, 400, /^sampler: expected one of/],
    [{ puzzle: EASY, nfe: 5000 }, 400, /^nfe: Too big/],
    [{ puzzle: EASY, nfe: 0 }, 400, /^nfe: Too small/],
    [{ puzzle: EASY, nfe: 1.5 }, 400, /^nfe: /],
    [{ puzzle: EASY, sampler: 'confidence' as const, nfe: 1 }, 400, /takes 2 NFE a step/],
    [{ puzzle: EASY, temperature: -1 }, 400, /^temperature: /],
    [{ puzzle: EASY, seed: 'x' }, 400, /^seed: /],
    // a body's numbers are JSON numbers, never strings
    [{ puzzle: EASY, nfe: '0x10' }, 400, /^nfe: Invalid input: expected number, received string$/],
    [{ puzzle: EASY, nfe: '32' }, 400, /^nfe: Invalid input: expected number, received string$/],
    [{ puzzle: EASY, temperature: '1' }, 400, /^temperature: .*received string$/],
    [{ puzzle: EASY, seed: '1' }, 400, /^seed: .*received string$/],
    [{ puzzle: EASY, retries: '2' }, 400, /^retries: .*received string$/],
    [{ puzzle: EASY, rules: 'true' }, 400, /^rules: .*expected boolean, received string$/],
    [
      { puzzle: EASY, rules: false, sampler: 'adaptive-remask' as const },
      400,
      /^sampler: adaptive-remask undoes what breaks Sudoku's rules; it needs rules: true$/,
    ],
    [{ puzzle: EASY, extra: 1 }, 400, /Unrecognized key/],
    [{}, 400, /^puzzle: /],
    ['{"puzzle": ', 400, /JSON/],
    [{ puzzle: 'x'.repeat(40_000) }, 413, /too large/],
  ];
  for (const [body, status, reason] of cases) {
    const res = await post('/api/sudoku/solve', body);
    const e = (await json(res)).error as string;
    assert.equal(res.status, status, `${JSON.stringify(body).slice(0, 80)}: ${e}`);
    assert.match(e, reason);
    assert.ok(!e.includes('\n'));
  }
  const wrongType = await post('/api/sudoku/solve', '<puzzle/>', {
    'content-type': 'application/xml',
  });
  assert.equal(wrongType.status, 415);
  const badStream = await stream('/api/sudoku/stream', { puzzle: '12', nfe: 8 });
  assert.equal(badStream.res.status, 400);
  assert.match((await json(badStream.res)).error as string, /^puzzle: puzzle has 2 characters/);
  // a query string's numbers are decimals
  for (const nfe of ['0x10', 'Infinity', ' ', '1_0']) {
    const r = await stream('/api/sudoku/stream', { puzzle: EASY, nfe });
    assert.equal(r.res.status, 400, nfe);
    assert.match((await json(r.res)).error as string, /^nfe: /);
  }
  // and its yes/no fields are 'true' or 'false'
  const rules = await stream('/api/sudoku/stream', { puzzle: EASY, rules: 'yes' });
  assert.equal(rules.res.status, 400);
  assert.match((await json(rules.res)).error as string, /^rules: .*expected boolean/);
  const textN = await post('/api/text/sample', { n: '2' });
  assert.equal(textN.status, 400);
  assert.match((await json(textN)).error as string, /^n: .*received string$/);
  assert.equal((await health()).done, before, 'a refused request ran a job');
  // a puzzle whose refusal needs a search is refused by its job, before any step
  const none = await stream('/api/sudoku/stream', { puzzle: NO_SOLUTION });
  assert.equal(none.res.status, 400);
  assert.equal((await json(none.res)).error, 'puzzle: puzzle has no solution');
  const gen = await fetch(`${server.url}/api/sudoku/generate?difficulty=hard`);
  assert.equal(gen.status, 400);
  assert.match((await json(gen)).error as string, /^difficulty: /);
});

test('a generated puzzle has the difficulty asked for and depends only on the seed', async () => {
  for (const difficulty of ['singles', 'beyond-singles', 'guessing']) {
    const url = `${server.url}/api/sudoku/generate?difficulty=${difficulty}&seed=4`;
    const a = await json(await fetch(url));
    assert.equal(a.difficulty, difficulty);
    assert.deepEqual(classifyPuzzles([parseBoard(a.puzzle as string)]), [difficulty]);
    assert.equal((await json(await fetch(url))).puzzle, a.puzzle);
  }
});

test('a full queue answers 503 with Retry-After; a client that disconnects cancels its job', async () => {
  const s = await startServer({ models, queue: { concurrency: 1, maxWaiting: 0 } });
  try {
    const ac = new AbortController();
    const long = await fetch(`${s.url}/api/sudoku/stream?puzzle=${EASY}&sampler=sjd&nfe=1024`, {
      headers: { accept: 'text/event-stream' },
      signal: ac.signal,
    });
    await readUntil(long, (t) => t.includes('event: step'));
    const busy = await fetch(`${s.url}/api/sudoku/solve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ puzzle: EASY }),
    });
    assert.equal(busy.status, 503);
    assert.match(busy.headers.get('retry-after')!, /^\d+$/);
    assert.match((await json(busy)).error as string, /^the server is busy/);
    const q = async () =>
      (await json(await fetch(`${s.url}/health`))).queue as Record<string, number>;
    assert.deepEqual([(await q()).running, (await q()).refused], [1, 1]);
    const t0 = performance.now();
    ac.abort();
    while ((await q()).running > 0) {
      assert.ok(performance.now() - t0 < 5000, 'the job was not cancelled');
      await new Promise((r) => setTimeout(r, 20));
    }
    // the slot is free again
    const again = await fetch(`${s.url}/api/sudoku/solve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ puzzle: EASY, nfe: 8 }),
    });
    assert.equal(again.status, 200);
  } finally {
    await s.close();
  }
});

test('text and images: sampled as sjd sample text samples, and streamed', async () => {
  const o = { n: 2, nfe: 8, temperature: 0.7, seed: 5 };
  const res = await post('/api/text/sample', o);
  assert.equal(res.status, 200);
  const a = await json(res);
  const cli = await sjdAsync(
    'sample',
    'text',
    '--model',
    `${models}/text`,
    '-n',
    '2',
    '--nfe',
    '8',
    '--temperature',
    '0.7',
    '--seed',
    '5',
  );
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual(a.texts, cli.stdout.trim().split('\n'));
  const t = await stream('/api/text/stream', o);
  assert.deepEqual(done(t.events).texts, a.texts);
  assert.equal(steps(t.events).length, 9); // the prior and 8 steps of Alg. 2
  const img = await post('/api/image/sample', { n: 1, nfe: 4, seed: 1 });
  const images = (await json(img)).images as number[][];
  assert.equal(images.length, 1);
  assert.equal(images[0]!.length, 8 * 8 * 3);
  assert.ok(images[0]!.every((v) => Number.isInteger(v) && v >= 0 && v < 16));
  const s = await stream('/api/image/stream', { n: 1, nfe: 4, seed: 1 });
  assert.deepEqual(done(s.events).images, images);
  const n = await post('/api/text/sample', { n: 5 });
  assert.equal(n.status, 400);
  assert.match((await json(n)).error as string, /^n: Too big/);
});

test('text templates: the API fills them as sjd sample text does, streamed too; bad ones are 400s naming the field', async () => {
  const o = { n: 2, nfe: 8, temperature: 0.7, seed: 5, infill: 'the ___ of ____' };
  const res = await post('/api/text/sample', o);
  assert.equal(res.status, 200);
  const a = await json(res);
  const texts = a.texts as string[];
  for (const t of texts) assert.match(t, /^the [a-z ]{3} of [a-z ]{4}$/);
  const cli = await sjdAsync(
    ...['sample', 'text', '--model', `${models}/text`, '-n', '2', '--nfe', '8'],
    ...['--temperature', '0.7', '--seed', '5', '--infill', o.infill],
  );
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual(texts, cli.stdout.replace(/\n$/, '').split('\n'));
  const t = await stream('/api/text/stream', o);
  assert.deepEqual(done(t.events).texts, texts);
  const p = await json(
    await post('/api/text/sample', { ...o, infill: undefined, prompt: 'the', length: 10 }),
  );
  for (const x of p.texts as string[]) assert.match(x, /^the[a-z ]{7}$/);
  assert.equal(p.normalised, undefined);
  // a field outside the alphabet is normalised as the corpus is, and the answer says how
  const folded = await json(
    await post('/api/text/sample', { ...o, infill: undefined, prompt: 'The', length: 10 }),
  );
  assert.deepEqual(folded.normalised, { prompt: 'the' });
  for (const x of folded.texts as string[]) assert.match(x, /^the[a-z ]{7}$/);
  for (const [body, want] of [
    [
      { infill: 'a_b', suffix: 'x' },
      /^infill is a whole template: give it alone, not with prompt or suffix$/,
    ],
    [{ length: 100_000 }, /^length must be a whole number from 1 to the model's \d+, got 100000$/],
    [{ prompt: 3 }, /^prompt: .*expected string/],
  ] as const) {
    const r = await post('/api/text/sample', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match((await json(r)).error as string, want);
  }
});

/** A raw GET (no URL normalisation by the client). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw request on its own connection: the status line and the body. */
function rawRequest(text: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const sock = connect(server.port, '127.0.0.1', () => sock.write(text));
    let out = '';
    sock.on('data', (c) => {
      out += c;
    });
    sock.on('error', () => {}); // the server may close it after its answer
    sock.on('close', () => {
      const [head, ...body] = out.split('\r\n\r\n');
      const status = /^HTTP\/1\.1 (\d+)/.exec(head ?? '');
      if (!status) return reject(new Error(`no answer to ${text.slice(0, 40)}: ${out}`));
      const type = /content-type: ([^\r]+)/i.exec(head!)?.[1] ?? '';
      resolve({ status: Number(status[1]), type, body: body.join('\r\n\r\n') });
    });
  });
}

test('every 4xx is {"error": "<one line>"}, fastify\'s and the HTTP parser\'s own too', async () => {
  const get = (path: string, headers = '') =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`;
  const cases: [string, number, RegExp][] = [
    [get('/%E0%A4%A'), 400, /is not a valid url component/],
    [get('/nope'), 404, /^no such path: GET \/nope$/],
    [get('/api/text/stream', 'Accept: application/json\r\n'), 406, /text\/event-stream/],
    [get('/', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431, /^the request headers are too large$/],
    ['BLAH / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, /^a malformed HTTP request/],
    [get('/api/sudoku/generate?difficulty=x'), 400, /^difficulty: /],
  ];
  for (const [text, status, reason] of cases) {
    const r = await rawRequest(text);
    const where = `${text.slice(0, 50)}: ${r.status} ${r.body}`;
    assert.equal(r.status, status, where);
    assert.match(r.type, /^application\/json/, where);
    const body = JSON.parse(r.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['error'], where);
    assert.match(body.error as string, reason, where);
    assert.ok(!(body.error as string).includes('\n'), where);
  }
});

test('a request that arrives while the server stops: 503, {"error": ...}', async () => {
  const s = await startServer({ models: modelsFolder(false) });
  // a long solve keeps its connection open through the stop; the next request on it comes late
  const body = JSON.stringify({ puzzle: EASY, sampler: 'sjd' as const, nfe: 200 });
  const sock = connect(s.port, '127.0.0.1');
  let out = '';
  sock.on('data', (c) => {
    out += c;
  });
  const closed = once(sock, 'close');
  sock.write(
    `POST /api/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  while (s.ctx.queue.stats().running === 0) await new Promise((r) => setTimeout(r, 10));
  const stopped = s.close();
  await new Promise((r) => setTimeout(r, 100));
  sock.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await stopped;
  await closed;
  assert.match(out, /^HTTP\/1\.1 200 /);
  assert.match(
    out,
    /HTTP\/1\.1 503 Service Unavailable\r\n[\s\S]*\r\n\r\n\{"error":"the server is stopping"\}$/,
  );
});

test('the page is served; paths cannot escape web/', async () => {
  const page = await fetch(`${server.url}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type')!, /text\/html/);
  assert.match(await page.text(), /<title>sjd: tokens sticking<\/title>/);
  assert.equal((await fetch(`${server.url}/dist/main.js`)).status, 200);
  for (const path of [
    '/../package.json',
    '/..%2fpackage.json',
    '/%2e%2e/package.json',
    '/%2e%2e%2fpackage.json',
    '/dist/../../package.json',
    '/dist/..%2f..%2fpackage.json',
    '/..%5cpackage.json',
    '/%2e%2e/%2e%2e/models/sudoku/config.json',
    '/....//package.json',
    '/web/../../package.json',
    '/%252e%252e/package.json',
  ]) {
    const r = await rawGet(path);
    assert.ok(r.status >= 400 && r.status < 500, `${path}: ${r.status}`);
    assert.ok(!r.body.includes('"name": "sjd"') && !r.body.includes('"anchorDim"'), path);
  }
});

test('no CORS headers, and no preflight', async () => {
  const r = await fetch(`${server.url}/api/models`, { headers: { origin: 'http://example.com' } });
  assert.equal(r.headers.get('access-control-allow-origin'), null);
  const pre = await fetch(`${server.url}/api/sudoku/solve`, {
    method: 'OPTIONS',
    headers: { origin: 'http://example.com', 'access-control-request-method': 'POST' },
  });
  assert.equal(pre.headers.get('access-control-allow-origin'), null);
  assert.ok(pre.status >= 400);
});
