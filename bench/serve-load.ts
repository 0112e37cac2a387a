// `npm run bench -- --only serve-load`: `sjd serve` (a child process on a
// loopback port, the shipped models, its default queue and deadlines) under 32 concurrent
// clients asking for solves (POST /api/sudoku/solve: the adaptive sampler at 32 NFE, generated
// puzzles in turn) and 8 clients that open a long stream (text and image in turn, n 4, NFE 1024)
// and never read it, each from its own loopback address (127.0.0.2-9, so the per-address stream
// limit does not refuse them). An image stream fills the socket's buffers within seconds and is
// dropped by the write deadline; a text stream's events are small enough that it mostly runs
// on; both hold a slot meanwhile. Bounded in time: SJD_SERVE_LOAD_S seconds (default 30) after
// a 5 s warm-up. Reported: solves/s, latency p50/p99/max of every answer (autocannon, which
// counts an answer later than 10 s as a timeout), the share of 503s, the server's resident
// memory after the warm-up and after the load, the streams it dropped and the jobs it stopped
// at their cap (from /health), /health's latency (p50, p99, max) polled every 50 ms during the
// load, and the server's own event loop delay (p99, max). Targets: every answer 200 or 503
// within 10 s, memory growth under 50 MB, /health p99 under 100 ms (`targets_met`). The
// reference is one solve on the idle server.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { Worker } from 'node:worker_threads';
import type Autocannon from 'autocannon';
import { generatedPairs } from '../src/tasks/sudoku/data.js';
import { formatBoard } from '../src/tasks/sudoku/puzzle/board.js';
import { type BenchResult, register } from './registry.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const CONNECTIONS = 32;
const STALLERS = 8;
const ANSWER_S = 10; // every solve answered within this
const WARMUP_S = 5;

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)\//.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`sjd serve exited with ${code}`)));
  });
  return { child, url };
}

/**
 * /health polled every 50 ms for `seconds`, from a worker thread (its own event loop, so the
 * load generator's work does not count); posts the latencies in ms.
 */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const out = [];
  const end = performance.now() + 1000 * workerData.seconds;
  while (performance.now() < end) {
    const t0 = performance.now();
    await (await fetch(workerData.url + '/health')).json();
    out.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  parentPort.postMessage(out);
})();
`;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

const rssMb = async (url: string) =>
  ((await (await fetch(`${url}/health`)).json()) as { rss_mb: number }).rss_mb;

/**
 * `STALLERS` clients, each on its own loopback address, that open a long stream and never read
 * (a paused socket: it does not even see the server close it). `stop()` closes them.
 */
function stallers(port: number) {
  const socks = Array.from({ length: STALLERS }, (_, i) => {
    const sock = connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${2 + i}` });
    sock.on('connect', () => {
      sock.pause();
      sock.write(
        `GET /api/${i % 2 ? 'image' : 'text'}/stream?n=4&nfe=1024&seed=${i} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`,
      );
    });
    sock.on('error', () => {});
    return sock;
  });
  return {
    stop: () => {
      for (const s of socks) s.destroy();
    },
  };
}

/** autocannon's load of solves for `seconds` (a dev dependency: loaded when this bench runs). */
async function load(url: string, puzzles: string[], seconds: number) {
  let k = 0;
  const autocannon = (await import('autocannon')).default as typeof Autocannon;
  return autocannon({
    url: `${url}/api/sudoku/solve`,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: ANSWER_S,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ puzzle: puzzles[k++ % puzzles.length] }),
        }),
      },
    ],
  });
}

register(
  'serve-load',
  async (): Promise<BenchResult> => {
    const seconds = Number(process.env.SJD_SERVE_LOAD_S ?? 30);
    const puzzles = generatedPairs(64, 11).puzzles.map((p) => formatBoard(p));
    const { child, url } = await startServer();
    try {
      const solve = async () => {
        const t0 = performance.now();
        const r = await fetch(`${url}/api/sudoku/solve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ puzzle: puzzles[0] }),
        });
        if (r.status !== 200) throw new Error(`idle solve: status ${r.status}`);
        await r.json();
        return performance.now() - t0;
      };
      await solve();
      const idle = [await solve(), await solve(), await solve()];
      await load(url, puzzles, WARMUP_S);
      const rssBefore = await rssMb(url);
      const stall = stallers(Number(new URL(url).port));
      const probe = new Worker(PROBE, { eval: true, workerData: { url, seconds } });
      const [r, [health]] = await Promise.all([
        load(url, puzzles, seconds),
        once(probe, 'message') as Promise<[number[]]>,
      ]);
      stall.stop();
      const after = (await (await fetch(`${url}/health`)).json()) as {
        rss_mb: number;
        queue: Record<string, number>;
        loop_delay_ms: { p99: number; max: number };
      };
      const rssAfter = after.rss_mb;
      const codes = Object.fromEntries(
        Object.entries(r.statusCodeStats ?? {}).map(([c, v]) => [c, v.count ?? 0]),
      );
      const answers = Object.values(codes).reduce((a, b) => a + b, 0);
      const onlyOkOrBusy =
        Object.keys(codes).every((c) => c === '200' || c === '503') && r.errors === 0;
      const growth = rssAfter - rssBefore;
      const healthP99 = quantile(health, 0.99);
      console.error(
        `serve-load: ${answers} answers in ${seconds} s (${JSON.stringify(codes)}), ${r.errors} errors, ${r.timeouts} timeouts (later than ${ANSWER_S} s); ${STALLERS} non-reading stream clients; the server's queue after: ${JSON.stringify(after.queue)}`,
      );
      return {
        sjd_ms: r.latency.p50,
        ref_ms: idle.reduce((a, b) => a + b, 0) / idle.length,
        solves_per_s: (codes['200'] ?? 0) / seconds,
        p50_ms: r.latency.p50,
        p99_ms: r.latency.p99,
        max_ms: r.latency.max,
        share_503: (codes['503'] ?? 0) / Math.max(answers, 1),
        errors: r.errors,
        timeouts: r.timeouts,
        streams_dropped: after.queue.dropped ?? 0,
        jobs_timed_out: after.queue.timed_out ?? 0,
        rss_before_mb: rssBefore,
        rss_after_mb: rssAfter,
        rss_growth_mb: growth,
        health_p50_ms: quantile(health, 0.5),
        health_p99_ms: healthP99,
        health_max_ms: Math.max(...health),
        server_loop_delay_p99_ms: after.loop_delay_ms.p99,
        server_loop_delay_max_ms: after.loop_delay_ms.max,
        targets_met:
          onlyOkOrBusy &&
          r.timeouts === 0 &&
          r.latency.max < 1000 * ANSWER_S &&
          growth < 50 &&
          healthP99 < 100
            ? 1
            : 0,
      };
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  },
  'one solve on the idle server',
);
