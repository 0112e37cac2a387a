// `npm run bench -- --only serve-load` (issue #15): `sjd serve` (a child process on a loopback
// port, the shipped Sudoku model, its default queue) under 32 concurrent clients asking for
// solves (POST /api/sudoku/solve: the adaptive sampler at 32 NFE, generated puzzles in turn),
// bounded in time: SJD_SERVE_LOAD_S seconds (default 30) after a 5 s warm-up. Reported: solves/s,
// latency p50/p99 of every answer (autocannon), the share of 503s, the server's resident memory
// after the warm-up and after the load (from /health), /health's latency (p50, p99, max) polled
// every 50 ms during the load, and the server's own event loop delay (p99, max). Targets: every
// answer 200 or 503, memory growth under 50 MB, /health p99 under 100 ms (`targets_met`). The
// reference is one solve on the idle server.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type Autocannon from 'autocannon';
import { formatBoard } from '../src/tasks/sudoku/board.js';
import { generatedPairs } from '../src/tasks/sudoku/data.js';
import { type BenchResult, register } from './registry.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const CONNECTIONS = 32;
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

/** autocannon's load of solves for `seconds` (a dev dependency: loaded when this bench runs). */
async function load(url: string, puzzles: string[], seconds: number) {
  let k = 0;
  const autocannon = (await import('autocannon')).default as typeof Autocannon;
  return autocannon({
    url: `${url}/api/sudoku/solve`,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 60,
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
      const probe = new Worker(PROBE, { eval: true, workerData: { url, seconds } });
      const [r, [health]] = await Promise.all([
        load(url, puzzles, seconds),
        once(probe, 'message') as Promise<[number[]]>,
      ]);
      const after = (await (await fetch(`${url}/health`)).json()) as {
        rss_mb: number;
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
        `serve-load: ${answers} answers in ${seconds} s (${JSON.stringify(codes)}), ${r.errors} errors, ${r.timeouts} timeouts`,
      );
      return {
        sjd_ms: r.latency.p50,
        ref_ms: idle.reduce((a, b) => a + b, 0) / idle.length,
        solves_per_s: (codes['200'] ?? 0) / seconds,
        p50_ms: r.latency.p50,
        p99_ms: r.latency.p99,
        share_503: (codes['503'] ?? 0) / Math.max(answers, 1),
        errors: r.errors,
        rss_before_mb: rssBefore,
        rss_after_mb: rssAfter,
        rss_growth_mb: growth,
        health_p50_ms: quantile(health, 0.5),
        health_p99_ms: healthP99,
        health_max_ms: Math.max(...health),
        server_loop_delay_p99_ms: after.loop_delay_ms.p99,
        server_loop_delay_max_ms: after.loop_delay_ms.max,
        targets_met: onlyOkOrBusy && growth < 50 && healthP99 < 100 ? 1 : 0,
      };
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  },
  'one solve on the idle server',
);
