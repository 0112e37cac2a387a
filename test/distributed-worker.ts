// One rank of a torch.distributed test (docs/design.md §5b), run by distributed.test.ts as
// `node dist/test/distributed-worker.js run <JSON task>` (one process per rank, one libtorch
// thread). It joins the group, plays its scenario and writes JSON lines to stdout (synchronous
// writes: the collectives block the event loop). Without the argument `run` (the test runner
// loads every file in test/) it does nothing.
import { writeSync } from 'node:fs';
import * as torch from '../src/torch/index.js';

type Distributed = typeof torch.distributed;
export type Scenario = 'collectives' | 'silent' | 'loop';
export interface WorkerTask {
  scenario: Scenario;
  init: Parameters<Distributed['initProcessGroup']>[0];
}

const say = (o: object) => writeSync(1, `${JSON.stringify(o)}\n`);
const { tensor } = torch;

/** Every collective on known tensors; rank r contributes values that depend on r. */
function collectives(pg: torch.distributed.ProcessGroup): void {
  const r = pg.rank;
  const out: Record<string, number[] | number[][]> = {};
  const reduce = (name: string, t: torch.Tensor, op: torch.distributed.ReduceOp) => {
    out[name] = pg.allReduce(t, op).toArray();
  };
  reduce('sumF32', tensor([r + 0.5, -r, 2 ** 20 * r], [3], 'float32'), 'sum');
  reduce('sumF64', tensor([r / 4, r * 2 ** -1000], [2], 'float64'), 'sum');
  reduce('sumI64', tensor([r, 2 ** 40 + r, -7 * r], [3], 'int64'), 'sum');
  reduce('avgF32', tensor([r, 3 * r + 1], [2], 'float32'), 'avg');
  reduce('avgF64', tensor([r / 8, 1 - r], [2], 'float64'), 'avg');
  reduce('avgI64', tensor([r, 10 + r], [2], 'int64'), 'avg');
  reduce('max', tensor([r, -r], [2], 'float32'), 'max');
  reduce('min', tensor([r, -r], [2], 'int64'), 'min');
  reduce('product', tensor([r + 1, 2], [2], 'float64'), 'product');
  // A leaf that requires grad is averaged in place too (parameters, as DDP's broadcast does).
  const leaf = tensor([2 * r], [1], 'float32').requiresGrad_(true);
  reduce('avgLeaf', leaf, 'avg');
  out.broadcastF64 = pg
    .broadcast(tensor([r, r * 1.25], [2], 'float64'), pg.worldSize - 1)
    .toArray();
  out.broadcastI64 = pg.broadcast(tensor([r + 100], [1], 'int64'), 0).toArray();
  out.gatherF32 = pg
    .allGather(tensor([r, r + 0.25, -r, 1], [2, 2], 'float32'))
    .map((t) => [...t.shape, ...t.toArray()]);
  out.gatherI64 = pg.allGather(tensor([2 ** 50 + r], [1], 'int64')).map((t) => t.toArray());
  // Many tensors of two dtypes (one non-contiguous) through 16-byte buckets: several buckets.
  const many = [
    tensor([r, 1], [2], 'float32'),
    tensor([r, 2, 3, 4, 5, 6], [2, 3], 'float32').transpose(0, 1),
    tensor([r], [1], 'int64'),
    tensor([], [0], 'float32'),
    tensor([r * 3, r], [2], 'float64'),
    tensor([r, r, 7], [3], 'float32'),
  ];
  pg.allReduceMany(many, 'sum', 40);
  out.many = many.map((t) => t.toArray());
  const big = [tensor([r, 2 * r], [2], 'float32'), tensor([4 * r], [1], 'float32')];
  pg.allReduceMany(big, 'avg');
  out.manyAvg = big.map((t) => t.toArray());
  const errors = [
    () => pg.allReduce(tensor([1], [1]), 'mean' as torch.distributed.ReduceOp),
    () => pg.broadcast(tensor([1], [1]), pg.worldSize),
  ].map((f) => {
    try {
      f();
      return 'no error';
    } catch (e) {
      return (e as Error).message;
    }
  });
  pg.barrier();
  say({ rank: r, worldSize: pg.worldSize, backend: pg.backend, out, errors });
}

/** Reports the first failed all-reduce of a loop (or a clean finish) and how long it took. */
function loop(pg: torch.distributed.ProcessGroup, deadlineMs: number): void {
  const t = tensor([1, 2, 3, 4], [4], 'float32');
  const end = Date.now() + deadlineMs;
  for (let step = 0; Date.now() < end; step++) {
    const t0 = Date.now();
    try {
      pg.allReduce(t, 'sum');
    } catch (e) {
      say({ rank: pg.rank, step, error: (e as Error).message, ms: Date.now() - t0 });
      return;
    }
    if (step < 5) say({ rank: pg.rank, step });
    t.fill_(1);
  }
  say({ rank: pg.rank, finished: true });
}

function run(task: WorkerTask): void {
  torch.setNumThreads(1);
  let pg: torch.distributed.ProcessGroup;
  try {
    pg = torch.distributed.initProcessGroup(task.init);
  } catch (e) {
    say({ rank: task.init.rank, error: (e as Error).message });
    return;
  }
  say({ rank: pg.rank, joined: true });
  const deadline = 3 * (task.init.timeoutMs ?? 10_000);
  if (task.scenario === 'collectives') collectives(pg);
  else if (task.scenario === 'silent' && pg.rank === pg.worldSize - 1) {
    // The last rank joined the group but never joins a collective: it sleeps.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, deadline);
  } else loop(pg, deadline);
  pg.destroy();
  let after = 'no error';
  try {
    pg.barrier();
  } catch (e) {
    after = (e as Error).message;
  }
  say({ rank: pg.rank, destroyed: after });
}

if (process.argv[2] === 'run') run(JSON.parse(process.argv[3]!) as WorkerTask);
