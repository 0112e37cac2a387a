// What the `sjd serve` tests share: a models folder with the shipped Sudoku model and
// tiny text and image models trained here by the commands (a few steps on a periodic text and
// a synthetic colour set), a server on an ephemeral loopback port, the `sjd` command run as a
// child with the test process's libtorch threads, small puzzles, and the shared solve batch's
// helpers: a POST solve, its reference answer from solveSudoku, the batch's stats. Importing this file does
// nothing (the test runner also loads it as a test file).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplerName } from '../src/sampling/index.js';
import {
  type AppOptions,
  buildApp,
  type SharedBatchStats,
  type SolveAnswer,
} from '../src/serve/index.js';
import type { ServedModel } from '../src/serve/models.js';
import { saveImageSet, syntheticImages } from '../src/tasks/image/index.js';
import { formatBoard, parseBoard, SHIPPED_SUDOKU, solveSudoku } from '../src/tasks/sudoku/index.js';
import { getNumThreads } from '../src/torch/index.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;

/** `sjd ...args` in a child process, with this process's libtorch threads. */
export const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: String(getNumThreads()) },
  });

/**
 * The same without blocking this process: the server in it keeps its timers (a run longer than
 * its keep-alive timeout, blocked, leaves the client a pooled connection the server then closes).
 */
export const sjdAsync = (...args: string[]) =>
  new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    const env = { ...process.env, SJD_THREADS: String(getNumThreads()) };
    execFile(process.execPath, [bin, ...args], { encoding: 'utf8', env }, (err, stdout, stderr) =>
      resolve({ status: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });

function must(r: ReturnType<typeof sjd>): void {
  if (r.status !== 0) throw new Error(`sjd failed (${r.status}): ${r.stderr}`);
}

/**
 * A models folder: sudoku/ (the shipped model), and with `all` text/ and image/ (tiny models of
 * a few training steps: their samples are noise, but they run the real loading and sampling).
 */
export function modelsFolder(all: boolean): string {
  const dir = tempDir('sjd-serve-models-');
  const models = join(dir, 'models');
  mkdirSync(models);
  symlinkSync(SHIPPED_SUDOKU, join(models, 'sudoku'));
  if (!all) return models;
  writeFileSync(join(dir, 'corpus.txt'), 'the house of the people and the senate '.repeat(300));
  must(sjd('data', 'text8', '--from', join(dir, 'corpus.txt'), '--out', join(dir, 'corpus')));
  must(
    sjd(
      'train',
      'text',
      '--size',
      'tiny',
      '--steps',
      '2',
      '--data',
      join(dir, 'corpus'),
      '--out',
      join(models, 'text'),
    ),
  );
  const set = (seed: number) =>
    syntheticImages({ n: 32, channels: 3, height: 8, width: 8, levels: 16, seed });
  saveImageSet(join(dir, 'train.safetensors'), set(1), 'synthetic');
  saveImageSet(join(dir, 'test.safetensors'), set(2), 'synthetic');
  must(
    sjd(
      'train',
      'image',
      '--size',
      'tiny',
      '--steps',
      '2',
      '--data',
      join(dir, 'train.safetensors'),
      '--eval-data',
      join(dir, 'test.safetensors'),
      '--out',
      join(models, 'image'),
    ),
  );
  return models;
}

/** The application listening on 127.0.0.1 at a free port; closed by `close()`. */
export async function startServer(o: AppOptions = {}) {
  const { app, ctx } = await buildApp(o);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { app, ctx, url: `http://127.0.0.1:${port}`, port, close: () => app.close() };
}

export { EASY, HARD, MEDIUM } from './sudoku-puzzles.js';

/** A blank board: the shipped model fills it in about 150 passes at seed 1, a long solve. */
export const EMPTY = '0'.repeat(81);

export type Server = Awaited<ReturnType<typeof startServer>>;

export type Answer = SolveAnswer & { status: number; error?: string; retryAfter: string | null };

/** POST /api/sudoku/solve: the status, the Retry-After header and the JSON answer. */
export const postSolve = async (
  s: Server,
  body: unknown,
  signal?: AbortSignal,
): Promise<Answer> => {
  const res = await fetch(`${s.url}/api/sudoku/solve`, {
    method: 'POST',
    // a fresh connection each: the in-process reference solves block the loop for seconds, after
    // which the server closes idle kept-alive sockets just as a pooled one would be reused
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify(body),
    signal,
  });
  const retryAfter = res.headers.get('retry-after');
  return { status: res.status, retryAfter, ...((await res.json()) as SolveAnswer) };
};

export const batch = (s: Server): SharedBatchStats => s.ctx.sudokuBatches.stats();

/** Waits until `cond` holds (polled every few milliseconds), at most `ms`. */
export async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const t0 = performance.now();
  while (!cond()) {
    assert.ok(performance.now() - t0 < ms, `never: ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** What solveSudoku gives for [puzzle] with an answer's settings: its board, NFE and attempts. */
export function reference(s: Server, puzzle: string, a: SolveAnswer): [string, number, number] {
  const m = s.ctx.served.sudoku as ServedModel;
  const r = solveSudoku(m.model, m.process, [parseBoard(puzzle)], {
    sampler: samplerName(a.sampler),
    nfe: a.nfe,
    temperature: a.temperature,
    seed: a.seed,
    retries: a.retries,
    rules: a.rules,
  });
  return [formatBoard(r.boards[0]!), r.nfe[0]!, r.attempts[0]!];
}

export const got = (a: Answer): [string, number, number] => [a.board, a.nfe_used, a.attempts];

/** A puzzle without a digit twice in a unit but without a solution (cell 1 has no candidate). */
export const NO_SOLUTION =
  '023456789100000000000000000000000000000000000000000000000000000000000000000000000';

export interface SseEvent {
  event: string;
  data: unknown;
}

/** The events of a complete SSE body (blocks of `event:` and `data:` lines; comments skipped). */
export function sseEvents(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
      return event && data ? { event, data: JSON.parse(data) as unknown } : null;
    })
    .filter((e): e is SseEvent => e !== null);
}

/** Reads a streaming response until `until(text so far)` holds (or it ends); the text read. */
export async function readUntil(res: Response, until: (text: string) => boolean): Promise<string> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!until(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += value;
  }
  return text;
}
