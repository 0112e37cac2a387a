// torch.distributed over Gloo (docs/design.md §5b; src/torch/distributed.ts): 2 and 3
// ranks, each a process of its own (test/distributed-worker.ts, one libtorch thread) on
// loopback, rendezvous through a FileStore in a temporary folder or a TCPStore on a free port.
// Collectives are exact on known tensors; a rank that never joins a collective, a killed peer
// and a rank missing at the rendezvous are one-line errors naming the rank, bounded in time;
// bad arguments are one-line errors before any rendezvous.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { DEFAULT_BUCKET_BYTES, planBuckets } from '../src/torch/buckets.js';
import { initProcessGroup } from '../src/torch/distributed.js';
import { freePort } from '../src/util/free-port.js';
import type { WorkerTask } from './distributed-worker.js';
import { tempDir } from './tmp.js';

const worker = new URL('./distributed-worker.js', import.meta.url).pathname;
type Line = { rank: number } & Record<string, unknown>;

/**
 * Runs one worker process per task and resolves with each one's JSON lines once all have
 * exited; `onLine` may react (e.g. kill a rank). Past `budgetMs` every worker is killed and the
 * promise rejects: a hang is a failure, never a stuck test.
 */
function runRanks(
  tasks: WorkerTask[],
  budgetMs: number,
  onLine?: (line: Line, procs: ChildProcess[]) => void,
): Promise<Line[][]> {
  const lines: Line[][] = tasks.map(() => []);
  const procs = tasks.map((task) =>
    spawn(process.execPath, [worker, 'run', JSON.stringify(task)], {
      env: { ...process.env, SJD_THREADS: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  return new Promise((resolve, reject) => {
    let left = procs.length;
    const timer = setTimeout(() => {
      for (const p of procs) p.kill('SIGKILL');
      reject(new Error(`workers still running after ${budgetMs} ms: ${JSON.stringify(lines)}`));
    }, budgetMs);
    procs.forEach((p, i) => {
      createInterface({ input: p.stdout! }).on('line', (text) => {
        const line = JSON.parse(text) as Line;
        lines[i]!.push(line);
        onLine?.(line, procs);
      });
      p.on('close', () => {
        if (--left > 0) return;
        clearTimeout(timer);
        resolve(lines);
      });
    });
  });
}

function fileTasks(scenario: WorkerTask['scenario'], worldSize: number, timeoutMs: number) {
  const path = join(tempDir('sjd-dist-'), 'store');
  return Array.from({ length: worldSize }, (_, rank) => ({
    scenario,
    init: {
      backend: 'gloo' as const,
      store: { kind: 'file' as const, path },
      rank,
      worldSize,
      timeoutMs,
    },
  }));
}

/** What every rank must hold after the `collectives` scenario on n ranks. */
function expected(n: number): Record<string, unknown> {
  const ranks = Array.from({ length: n }, (_, r) => r);
  const s = (n * (n - 1)) / 2;
  const f32 = Math.fround;
  return {
    sumF32: [s + n / 2, -s, 2 ** 20 * s],
    sumF64: [s / 4, s * 2 ** -1000],
    sumI64: [s, n * 2 ** 40 + s, -7 * s],
    avgF32: [f32(s / n), f32((3 * s + n) / n)],
    avgF64: [s / 8 / n, (n - s) / n],
    avgI64: [Math.trunc(s / n), Math.trunc((10 * n + s) / n)],
    max: [n - 1, 0],
    min: [0, -(n - 1)],
    product: [ranks.reduce((p, r) => p * (r + 1), 1), 2 ** n],
    avgLeaf: [f32((2 * s) / n)],
    broadcastF64: [n - 1, (n - 1) * 1.25],
    broadcastI64: [100],
    gatherF32: ranks.map((r) => [2, 2, r, r + 0.25, -r, 1]),
    gatherI64: ranks.map((r) => [2 ** 50 + r]),
    many: [[s, n], [s, 4 * n, 2 * n, 5 * n, 3 * n, 6 * n], [s], [], [3 * s, s], [s, s, 7 * n]],
    manyAvg: [[f32(s / n), f32((2 * s) / n)], [f32((4 * s) / n)]],
  };
}

function checkCollectives(lines: Line[][], n: number): void {
  const want = JSON.parse(JSON.stringify(expected(n))); // as the workers' lines: -0 reads as 0
  lines.forEach((ls, rank) => {
    assert.deepEqual(ls[0], { rank, joined: true });
    const result = ls[1]!;
    assert.equal(result.rank, rank);
    assert.equal(result.worldSize, n);
    assert.equal(result.backend, 'gloo');
    assert.deepEqual(result.out, want, `rank ${rank}`);
    assert.deepEqual(result.errors, [
      `reduce op must be 'sum', 'avg', 'product', 'min' or 'max', got 'mean'`,
      `src: expected a rank from 0 to ${n - 1}`,
    ]);
    assert.deepEqual(ls[2], { rank, destroyed: 'group: the process group was destroyed' });
  });
}

test('3 ranks (FileStore): all-reduce, broadcast, all-gather, many-tensor buckets and barrier are exact', async () => {
  checkCollectives(await runRanks(fileTasks('collectives', 3, 20_000), 90_000), 3);
});

test('2 ranks (TCPStore hosted by rank 0, Gloo on interface lo): the same collectives are exact', async () => {
  const port = await freePort();
  const tasks = [0, 1].map((rank) => ({
    scenario: 'collectives' as const,
    init: {
      backend: 'gloo' as const,
      store: { kind: 'tcp' as const, host: '127.0.0.1', port, isMaster: rank === 0 },
      rank,
      worldSize: 2,
      timeoutMs: 20_000,
      interface: 'lo',
    },
  }));
  checkCollectives(await runRanks(tasks, 90_000), 2);
});

/** The one error line of a surviving rank: one line naming the operation and that rank. */
function failure(ls: Line[], rank: number, n: number, op: string): Line {
  const line = ls.find((l) => 'error' in l);
  assert.ok(line, `rank ${rank} reported no error: ${JSON.stringify(ls)}`);
  const msg = line.error as string;
  assert.ok(!msg.includes('\n'), msg);
  assert.ok(msg.startsWith(`distributed ${op} failed on rank ${rank} of ${n} (timeout `), msg);
  return line;
}

test('a rank that never joins a collective: the others fail after the timeout, naming their rank', async () => {
  const timeoutMs = 2000;
  const lines = await runRanks(fileTasks('silent', 3, timeoutMs), 60_000, (line, procs) => {
    // once both survivors have reported, the silent rank is no longer needed
    if ('error' in line && line.rank === 1) procs[2]!.kill('SIGKILL');
  });
  for (const rank of [0, 1]) {
    const { ms } = failure(lines[rank]!, rank, 3, 'allreduce');
    assert.ok((ms as number) >= timeoutMs * 0.9 && (ms as number) < timeoutMs + 5000, `${ms} ms`);
    assert.equal(lines[rank]!.at(-1)!.destroyed, 'group: the process group was destroyed');
  }
});

test('a peer killed mid-run (SIGKILL): the survivors fail at once with one line naming their rank', async () => {
  const timeoutMs = 30_000;
  const lines = await runRanks(fileTasks('loop', 3, timeoutMs), 60_000, (line, procs) => {
    if (line.rank === 2 && line.step === 3) procs[2]!.kill('SIGKILL');
  });
  assert.ok(lines[2]!.some((l) => l.step === 3));
  for (const rank of [0, 1]) {
    const { ms, error } = failure(lines[rank]!, rank, 3, 'allreduce');
    assert.ok((ms as number) < timeoutMs / 2, `${ms} ms: ${error}`);
  }
});

test('a rank missing at the TCP rendezvous: init fails after the timeout, naming the rank', async () => {
  const port = await freePort();
  const init = {
    backend: 'gloo' as const,
    store: { kind: 'tcp' as const, host: '127.0.0.1', port, isMaster: true },
    rank: 0,
    worldSize: 2,
    timeoutMs: 1500,
  };
  const [lines] = await runRanks([{ scenario: 'collectives', init }], 30_000);
  const msg = lines![0]!.error as string;
  assert.ok(msg.startsWith('distributed init failed on rank 0 of 2 (timeout 1500 ms): '), msg);
  assert.ok(!msg.includes('\n'), msg);
});

test('bad arguments are one-line errors before any rendezvous', () => {
  const path = join(tempDir('sjd-dist-'), 'store');
  const base = {
    backend: 'gloo' as const,
    store: { kind: 'file' as const, path },
    rank: 0,
    worldSize: 2,
  };
  const cases: [object, string][] = [
    [{ worldSize: 0 }, 'process group option worldSize: expected an integer from 1 to 1048576'],
    [{ rank: 2 }, 'process group option rank: expected an integer from 0 to 1'],
    [{ rank: -1 }, 'process group option rank: expected an integer from 0 to 1'],
    [{ rank: 0.5 }, 'process group option rank: expected an integer from 0 to 1'],
    [{ backend: 'mpi' }, "process group option backend: expected 'gloo' or 'nccl', got 'mpi'"],
    [
      { backend: 'nccl' },
      "backend 'nccl' needs libtorch with CUDA; this libtorch has none (use 'gloo')",
    ],
    [
      { timeoutMs: 0 },
      'process group option timeoutMs: expected an integer from 1 to 1099511627776',
    ],
    [
      { store: { kind: 'redis' } },
      "process group option store.kind: expected 'tcp' or 'file', got 'redis'",
    ],
    [
      { store: { kind: 'tcp', host: '127.0.0.1', port: 70000 } },
      'process group option store.port: expected an integer from 1 to 65535',
    ],
    [
      { store: { kind: 'tcp', port: 1234 } },
      'process group option store.host: expected a non-empty string',
    ],
    [
      { store: { kind: 'file', path: '' } },
      'process group option store.path: expected a non-empty string',
    ],
    [
      { interface: 'lo', hostname: 'localhost' },
      'process group option interface: give an interface or a hostname, not both',
    ],
  ];
  for (const [override, message] of cases) {
    const options = { ...base, ...override } as Parameters<typeof initProcessGroup>[0];
    assert.throws(() => initProcessGroup(options), { message }, JSON.stringify(override));
  }
});

test('buckets: in order, one dtype each, at most the cap (an oversized tensor alone), empty ones left out', () => {
  const f = (numel: number) => ({ dtype: 'float32' as const, numel });
  const d = (numel: number) => ({ dtype: 'float64' as const, numel });
  assert.deepEqual(planBuckets([f(2), f(6), d(1), f(0), d(2), f(3)], 40), [[0, 1], [2, 4], [5]]);
  assert.deepEqual(planBuckets([f(100), f(1), f(1)], 16), [[0], [1, 2]]);
  assert.deepEqual(planBuckets([]), []);
  assert.equal(DEFAULT_BUCKET_BYTES, 25 * 1024 * 1024);
  const params = Array.from({ length: 10 }, () => f(2 ** 20)); // 4 MiB each
  assert.deepEqual(
    planBuckets(params).map((b) => b.length),
    [6, 4],
  );
  assert.throws(() => planBuckets([f(1)], 0), /^RangeError: bucket size must be positive, got 0$/);
});
