// `sjd serve` as a command: it prints its URL on loopback, names the tasks it serves
// and those it cannot (models/ without text or image models), warns in one line when it listens
// on an address other than loopback, answers /health, and on SIGTERM
// drains and exits with status 0; a SIGINT during a solve lets the solve finish first. Bad
// flags get one line and a non-zero exit.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import type { SolveAnswer } from '../src/serve/index.js';
import { EASY, modelsFolder, sjd } from './serve-fixture.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;

/** `sjd serve ...args` started; resolves with the child and the URL it prints. */
async function serve(
  ...args: string[]
): Promise<{ child: ChildProcess; url: string; err: () => string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c) => {
    err += c;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`sjd serve exited (${code}): ${err}`)));
  });
  return { child, url, err: () => err };
}

test('sjd serve listens on loopback, says what it serves, and drains on SIGTERM', async () => {
  const s = await serve('--models', modelsFolder(false));
  assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
  assert.match(s.err(), /sudoku: .*model\.safetensors/);
  assert.match(s.err(), /text: unavailable \(no text model in text\/\)/);
  assert.doesNotMatch(s.err(), /warning/);
  const h = await fetch(`${s.url}health`);
  assert.equal(h.status, 200);
  const taken = sjd('serve', '--port', new URL(s.url).port);
  assert.equal(taken.status, 1);
  assert.match(taken.stderr, /^sjd: .*EADDRINUSE.*\n$/);
  const exit = once(s.child, 'exit');
  s.child.kill('SIGTERM');
  const [code] = await exit;
  assert.equal(code, 0);
  assert.match(s.err(), /SIGTERM: draining .*\n.*stopped/);
});

test('sjd serve on an address other than loopback says so in one warning line', async () => {
  for (const host of ['0.0.0.0', '::']) {
    const s = await serve('--host', host, '--models', modelsFolder(false));
    try {
      assert.equal((await fetch(`${s.url}health`)).status, 200); // stderr has arrived meanwhile
      const warnings = s
        .err()
        .split('\n')
        .filter((l) => /warning/.test(l));
      assert.deepEqual(warnings, [
        `sjd serve: warning: listening on ${host}, reachable from other machines; the server has no authentication and no TLS`,
      ]);
    } finally {
      const exit = once(s.child, 'exit');
      s.child.kill('SIGTERM');
      await exit;
    }
  }
});

test('a stop lets a running solve finish', async () => {
  const s = await serve();
  const solve = fetch(`${s.url}api/sudoku/solve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ puzzle: EASY, sampler: 'sjd' as const, nfe: 100 }),
  });
  while (!/"running":1/.test(await (await fetch(`${s.url}health`)).text()))
    await new Promise((r) => setTimeout(r, 10));
  const exit = once(s.child, 'exit');
  s.child.kill('SIGINT');
  const res = await solve;
  assert.equal(res.status, 200);
  assert.match(((await res.json()) as SolveAnswer).board, /^[1-9]{81}$/);
  assert.equal((await exit)[0], 0);
});

test('bad flags: one line, non-zero exit', () => {
  for (const args of [
    ['--port', '70000'],
    ['--jobs', '0'],
    ['--port', 'x'],
  ]) {
    const r = sjd('serve', ...args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^sjd: /);
  }
});
