// All-reduce bandwidth over loopback (docs/design.md §5b): 2 ranks, one thread each, Gloo on
// interface lo, float32 sums of 1 KiB to 64 MiB; sjd's torch.distributed (bench/allreduce-
// worker.ts) against the same call in Debian's PyTorch (`torch_ref.py allreduce`), alternating
// pairs of processes in the same run. GB/s = bytes / time of one all-reduce (rank 0's median).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort } from '../src/util/free-port.js';
import { median } from './reference.js';
import { type BenchResult, register } from './registry.js';

const SIZES = [2 ** 10, 2 ** 16, 2 ** 20, 2 ** 24, 2 ** 26];
const REPS = [200, 100, 30, 8, 4];
const ROUNDS = 2;
const worker = new URL('./allreduce-worker.js', import.meta.url).pathname;
const python = new URL('../../bench/torch_ref.py', import.meta.url).pathname;
const env = {
  ...process.env,
  SJD_THREADS: '1',
  OMP_WAIT_POLICY: 'PASSIVE',
  OPENBLAS_NUM_THREADS: '1',
};

type Times = Record<string, number[]>;
type Command = (rank: number, port: number) => [string, string[]];

/** Runs both ranks of one side; rank 0's times per size (seconds). */
async function pair(command: Command): Promise<Times> {
  const port = await freePort();
  const outs = await Promise.all(
    [0, 1].map((rank) => promisify(execFile)(...command(rank, port), { env })),
  );
  return (JSON.parse(outs[0]!.stdout.trim().split('\n').pop()!) as { times: Times }).times;
}

const sjd: Command = (rank, port) => [
  process.execPath,
  [worker, JSON.stringify({ rank, worldSize: 2, port, sizes: SIZES, reps: REPS })],
];
const pytorch: Command = (rank, port) => [
  '/usr/bin/python3',
  [python, 'allreduce', '--rank', String(rank), '--world', '2', '--port', String(port)].concat([
    '--sizes',
    SIZES.join(','),
    '--reps',
    REPS.join(','),
    '--threads',
    '1',
  ]),
];

const label = (bytes: number) => (bytes >= 2 ** 20 ? `${bytes / 2 ** 20}M` : `${bytes / 2 ** 10}K`);

register('allreduce', async () => {
  const ours: number[][] = SIZES.map(() => []);
  const ref: number[][] = SIZES.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const a = await pair(sjd);
    const b = await pair(pytorch);
    SIZES.forEach((bytes, i) => {
      ours[i]!.push(...a[bytes]!);
      ref[i]!.push(...b[bytes]!);
    });
  }
  const rows = new Map<string, BenchResult>();
  SIZES.forEach((bytes, i) => {
    const sjdMs = median(ours[i]!) * 1000;
    const refMs = median(ref[i]!) * 1000;
    rows.set(label(bytes), {
      sjd_ms: sjdMs,
      ref_ms: refMs,
      gbps: bytes / (sjdMs * 1e6),
      ref_gbps: bytes / (refMs * 1e6),
    });
  });
  return rows;
});
