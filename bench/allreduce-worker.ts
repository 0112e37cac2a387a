// One rank of the all-reduce benchmark (bench/distributed.ts; docs/design.md §5b):
// `node dist/bench/allreduce-worker.js <JSON {rank, worldSize, port, sizes, reps}>` joins a
// Gloo group over a TCPStore on loopback (interface lo), then for each size in bytes all-reduces
// (sum) a float32 tensor of zeros `reps` times after 2 warm-up calls and a barrier, timing each
// call, and prints one JSON line {times: {bytes: [seconds...]}} (the same protocol as
// `torch_ref.py allreduce`).

import { initProcessGroup } from '../src/torch/distributed.js';
import { setNumThreads, zeros } from '../src/torch/index.js';

export interface AllReduceTask {
  rank: number;
  worldSize: number;
  port: number;
  sizes: number[];
  reps: number[];
}

function run(task: AllReduceTask): void {
  setNumThreads(1);
  const pg = initProcessGroup({
    backend: 'gloo',
    store: { kind: 'tcp', host: '127.0.0.1', port: task.port, isMaster: task.rank === 0 },
    rank: task.rank,
    worldSize: task.worldSize,
    timeoutMs: 120_000,
    interface: 'lo',
  });
  const times: Record<number, number[]> = {};
  task.sizes.forEach((bytes, i) => {
    const t = zeros([bytes / 4]);
    pg.allReduce(t);
    pg.allReduce(t);
    pg.barrier();
    times[bytes] = Array.from({ length: task.reps[i]! }, () => {
      const t0 = performance.now();
      pg.allReduce(t);
      return (performance.now() - t0) / 1000;
    });
    t.dispose();
  });
  pg.destroy();
  console.log(JSON.stringify({ times }));
}

if (process.argv[2] !== undefined) run(JSON.parse(process.argv[2]) as AllReduceTask);
