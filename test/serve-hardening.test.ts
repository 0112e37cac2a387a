// `sjd serve` against adversarial clients and requests: event-stream clients that never read
// do not hold the job slots (a job's compute never waits on its client: steps it cannot take are
// skipped, and a client behind is dropped when another job waits for its slot), so a solve
// posted once four of them have stalled is answered with --jobs 2 --queue 2; a
// request must name this server in its Host header (loopback names or the configured host: DNS
// rebinding), and one without gets the JSON error; a request trickled a byte at a time, its
// headers or its body after complete headers, is cut off at the 10 s request deadline; a models folder that is missing or a file stops the server at
// start in one line; the API's template errors name its JSON fields.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { hostRefusal } from '../src/serve/host-header.js';
import { textTemplate } from '../src/tasks/text/template.js';
import { EASY, modelsFolder, startServer, until } from './serve-fixture.js';
import { tempDir } from './tmp.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;

/**
 * A raw request on its own connection (`text` trickled `trickleMs` a character, then `after`
 * trickled `afterMs` a character): the status, and the body once the server closes.
 */
function raw(
  port: number,
  text: string,
  trickleMs = 0,
  after = '',
  afterMs = 0,
): Promise<{ status: number; body: string; s: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const send = async (part: string, ms: number) => {
      if (ms === 0) return void sock.write(part);
      for (const c of part) {
        if (sock.destroyed) return;
        sock.write(c);
        await sleep(ms);
      }
    };
    const sock = connect(port, '127.0.0.1', async () => {
      await send(text, trickleMs);
      await send(after, afterMs);
    });
    let out = '';
    sock.on('data', (c) => {
      out += c;
    });
    sock.on('error', () => {});
    sock.on('close', () => {
      const [head, ...body] = out.split('\r\n\r\n');
      const status = /^HTTP\/1\.[01] (\d+)/.exec(head ?? '');
      if (!status) return reject(new Error(`no answer to ${text.slice(0, 40)}: ${out}`));
      resolve({
        status: Number(status[1]),
        body: body.join(''),
        s: (performance.now() - t0) / 1000,
      });
    });
  });
}

test('a stream job never waits on its client: 4 never-reading streams, --jobs 2 --queue 2, a solve once they stall is answered', {
  timeout: 180_000,
}, async () => {
  // a long write deadline: a job that waited on its client would hold its slot for 30 s
  const s = await startServer({
    models: modelsFolder(true),
    queue: { concurrency: 2, maxWaiting: 2 },
    deadlines: { writeMs: 30_000 },
  });
  const readers: Socket[] = [];
  try {
    // each from its own loopback address (one address holds at most 2 streams)
    for (let i = 0; i < 4; i++) {
      const sock = connect({ port: s.port, host: '127.0.0.1', localAddress: `127.0.0.${2 + i}` });
      await once(sock, 'connect');
      sock.pause(); // never reads
      sock.write(
        `GET /api/image/stream?n=4&nfe=1024&seed=${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      );
      readers.push(sock);
    }
    // until every job in a slot waits for its client (a busy machine fills the sockets later)
    await until(
      () => {
        const q = s.ctx.queue.stats();
        return q.stalled >= 1 && q.running === 0 && q.waiting === 0;
      },
      'the streams stall',
      150_000,
    );
    const t0 = performance.now();
    const r = await fetch(`${s.url}/api/sudoku/solve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ puzzle: EASY, nfe: 8 }),
    });
    assert.equal(r.status, 200, `${r.status} ${await r.clone().text()}`);
    assert.ok(performance.now() - t0 < 20_000, 'answered without waiting out the readers (30 s)');
  } finally {
    for (const sock of readers) sock.destroy();
    await s.close();
  }
});

test('the Host header: loopback names and the configured host only; none gets the JSON error', async () => {
  const s = await startServer({ models: modelsFolder(false) });
  try {
    const get = (host: string | null) =>
      raw(
        s.port,
        `GET /health HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`,
      );
    for (const host of [
      `127.0.0.1:${s.port}`,
      `localhost:${s.port}`,
      `[::1]:${s.port}`,
      'LOCALHOST',
    ])
      assert.equal((await get(host)).status, 200, host);
    const evil = await get(`rebind.example.com:${s.port}`);
    assert.equal(evil.status, 403);
    assert.match(
      JSON.parse(evil.body).error,
      /^Host 'rebind\.example\.com:\d+' is not this server/,
    );
    const none = await get(null);
    assert.equal(none.status, 400);
    assert.deepEqual(JSON.parse(none.body), { error: 'the request has no Host header' });
  } finally {
    await s.close();
  }
  assert.equal(hostRefusal('example.org:80', 'example.org'), null); // the configured host
  assert.equal(hostRefusal('192.168.1.5:8080', '0.0.0.0'), null); // any address on every interface
  assert.notEqual(hostRefusal('192.168.1.5:8080', '127.0.0.1'), null);
  assert.notEqual(hostRefusal('evil.example', '0.0.0.0'), null);
});

test('a request trickled a byte at a time, its headers or its body after them, is cut off at the 10 s request deadline', {
  timeout: 90_000,
}, async () => {
  const s = await startServer({ models: modelsFolder(false) });
  try {
    const body = JSON.stringify({ puzzle: EASY, nfe: 8, seed: 1, temperature: 1 });
    const head = `POST /api/sudoku/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const cases = [
      // 200 ms a byte: about 30 s for the whole
      ['the whole request at 200 ms a byte', () => raw(s.port, head + body, 200)],
      // the headers at once, then the body a byte a second (it was held 60 s)
      ['the body a byte a second after complete headers', () => raw(s.port, head, 0, body, 1000)],
    ] as const;
    // both at once, on their own connections: each is timed from its own start
    const replies = await Promise.all(cases.map(([, send]) => send()));
    for (const [i, [what]] of cases.entries()) {
      const r = replies[i]!;
      assert.equal(r.status, 408, what);
      assert.match(JSON.parse(r.body).error, /did not arrive within 10 s/, what);
      assert.ok(r.s < 13, `${what}: cut off after ${r.s.toFixed(1)} s`);
    }
  } finally {
    await s.close();
  }
});

test('serve --models: a missing folder or a file stops it at start, in one line', () => {
  const dir = tempDir('sjd-serve-models-bad-');
  const file = join(dir, 'afile');
  writeFileSync(file, 'x');
  for (const [models, reason] of [
    [join(dir, 'nonexistent'), /^sjd: models folder .*nonexistent: no such folder$/],
    [file, /^sjd: models folder .*afile is a file, not a folder of models$/],
  ] as const) {
    const r = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--models', models], {
      encoding: 'utf8',
      env: { ...process.env, SJD_THREADS: '1' },
      timeout: 60_000,
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr.trim(), reason);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
});

test("the API's template errors name its JSON fields, the CLI's its flags", () => {
  assert.throws(
    () => textTemplate({ prompt: 'abc', suffix: 'cd', length: 4 }, 8, (f) => f),
    /^Error: prompt and suffix overlap at position 2/,
  );
  assert.throws(
    () => textTemplate({ prompt: 'abc', suffix: 'cd', length: 4 }, 8),
    /^Error: --prompt and --suffix overlap at position 2/,
  );
});
