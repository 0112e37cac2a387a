// Runs the PyTorch reference (bench/torch_ref.py, Debian's python3-torch, or the Python named by
// SJD_PYTHON) with the same thread settings and device as sjd, and reports medians; shared by
// every benchmark that compares against it. Either as one run of N steps, or as a persistent
// process stepping in alternation with sjd.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { type PrecisionSetting, resolvePrecision } from '../src/model/auto-precision.js';
import { defaultDevice, getNumThreads, type Tensor, torchVersion } from '../src/torch/index.js';
import type { BenchResult } from './registry.js';

const script = new URL('../../bench/torch_ref.py', import.meta.url).pathname;
/** The Python with torch: Debian's by default; a GPU machine's own with SJD_PYTHON. */
const python = process.env.SJD_PYTHON ?? '/usr/bin/python3';

/**
 * The reference's environment: passive OpenMP, OpenBLAS's worker pool at our thread count
 * (sjd's setNumThreads sets OpenBLAS's too; PyTorch's does not, so it is set at start-up), and
 * glibc's malloc set as the addon set ours (torchVersion().malloc: large buffers kept in the heap
 * rather than faulted in again at every step), so that neither side's time is the allocator's;
 * a GLIBC_TUNABLES of the caller's own is passed on unchanged.
 */
export function referenceEnv(): NodeJS.ProcessEnv {
  const m = torchVersion().malloc;
  const tunables = m
    ? `glibc.malloc.mmap_threshold=${m.mmapThreshold}:glibc.malloc.trim_threshold=${m.trimThreshold}:glibc.malloc.top_pad=${m.topPad}:glibc.malloc.arena_max=${m.arenaMax}`
    : undefined;
  return {
    ...process.env,
    OMP_WAIT_POLICY: process.env.OMP_WAIT_POLICY ?? 'PASSIVE',
    OPENBLAS_NUM_THREADS: String(getNumThreads()),
    ...(tunables && process.env.GLIBC_TUNABLES === undefined ? { GLIBC_TUNABLES: tunables } : {}),
  };
}

/** Runs `torch_ref.py <args>` and parses its JSON line. */
export function runReference(args: string[]): { times: number[] } & Record<string, unknown> {
  const out = execFileSync(python, [script, ...args, '--threads', String(getNumThreads())], {
    encoding: 'utf8',
    env: referenceEnv(),
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Runs each once (warm-up), then `rounds` times alternately in this process; returns the
 * medians in ms (sjd_ms for `ours`, ref_ms for `ref`).
 */
export function interleaved(
  ours: () => void,
  ref: () => void,
  rounds: number,
): { sjd_ms: number; ref_ms: number } {
  ours();
  ref();
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    a.push(timeMs(ours));
    b.push(timeMs(ref));
  }
  return { sjd_ms: median(a), ref_ms: median(b) };
}

/**
 * A sampler against its own network passes, in the same runs: `model.forward` is timed inside
 * each of `rounds` runs of `run` (after one warm-up run). sjd_ms is a run's wall time, ref_ms
 * the time its network passes took (medians): the ratio is the sampler's overhead over the bare
 * passes it made, at the batch sizes and inputs it made them. On an accelerator each pass reads
 * one number back, so that its time is spent inside the timer. Also gives the last run's result.
 * A run long enough to need no warm-up (tens of seconds) may skip it (`warmUp` false).
 */
export function networkShare<T>(
  model: { forward: (...args: never[]) => Tensor },
  run: () => T,
  rounds: number,
  warmUp = true,
): [{ sjd_ms: number; ref_ms: number; passes: number }, T] {
  const forward = model.forward;
  const own = Object.hasOwn(model, 'forward');
  let [inside, passes] = [0, 0];
  const sync = defaultDevice() !== 'cpu';
  model.forward = (...args: never[]) => {
    const t0 = performance.now();
    const out = forward.apply(model, args);
    if (sync) out.flatten().narrow(0, 0, 1).item();
    inside += performance.now() - t0;
    passes++;
    return out;
  };
  try {
    let last = warmUp ? run() : (undefined as T);
    const [total, net, count]: number[][] = [[], [], []];
    for (let r = 0; r < rounds; r++) {
      [inside, passes] = [0, 0];
      total.push(
        timeMs(() => {
          last = run();
        }),
      );
      net.push(inside);
      count.push(passes);
    }
    return [{ sjd_ms: median(total), ref_ms: median(net), passes: median(count) }, last];
  } finally {
    if (own) model.forward = forward;
    else Reflect.deleteProperty(model, 'forward');
  }
}

/** Wall time of fn in milliseconds. */
export function timeMs(fn: () => void): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

/**
 * A persistent PyTorch process (`torch_ref.py serve`) doing training steps of the model of
 * `config` on request, so that benchmarks alternate sjd and PyTorch in short blocks and both
 * see the same machine conditions. The idle side waits blocked (no spinning: passive OpenMP).
 */
export class ReferenceServer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines: AsyncIterator<string>;

  private constructor(config: object) {
    this.#child = spawn(
      python,
      [
        script,
        'serve',
        '--config',
        JSON.stringify(config),
        '--threads',
        String(getNumThreads()),
        '--device',
        defaultDevice(),
      ],
      { env: referenceEnv() },
    );
    this.#lines = createInterface({ input: this.#child.stdout })[Symbol.asyncIterator]();
  }

  static async start(config: object): Promise<ReferenceServer> {
    const s = new ReferenceServer(config);
    await s.#next();
    return s;
  }

  async #next(): Promise<Record<string, number[]>> {
    const r = await this.#lines.next();
    if (r.done) throw new Error('the PyTorch reference exited (is python3-torch installed?)');
    return JSON.parse(r.value);
  }

  /** n consecutive reference training steps; their times in milliseconds. */
  async steps(n: number): Promise<number[]> {
    this.#child.stdin.write(`steps ${n}\n`);
    return (await this.#next()).times!.map((s) => s * 1000);
  }

  close(): void {
    this.#child.stdin.end('quit\n');
  }
}

/**
 * Alternates blocks of `block` sjd steps and `block` reference steps, `rounds` times; the first
 * step of every block (the switch) is left out on both sides. Returns the medians in ms.
 */
export async function alternate(
  ours: () => void,
  config: object,
  rounds: number,
  block: number,
): Promise<{ sjd_ms: number; ref_ms: number }> {
  const r = await alternateEach({ sjd: ours }, config, rounds, block);
  return { sjd_ms: r.sjd!, ref_ms: r.ref_ms };
}

/**
 * alternate() for several sjd steps (the same network at two precisions, say): in each round a
 * block of each, then a block of the reference's. Returns each one's median and the reference's
 * (ref_ms), in ms.
 */
export async function alternateEach(
  ours: Record<string, () => void>,
  config: object,
  rounds: number,
  block: number,
): Promise<Record<string, number> & { ref_ms: number }> {
  const ref = await ReferenceServer.start(config);
  try {
    for (const step of Object.values(ours)) step();
    await ref.steps(2);
    const times: Record<string, number[]> = Object.fromEntries(
      Object.keys(ours).map((k) => [k, []]),
    );
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const [name, step] of Object.entries(ours))
        for (let i = 0; i < block; i++) {
          const ms = timeMs(step);
          if (i > 0) times[name]!.push(ms);
        }
      b.push(...(await ref.steps(block)).slice(1));
    }
    const medians = Object.fromEntries(Object.entries(times).map(([k, a]) => [k, median(a)]));
    return { ...medians, ref_ms: median(b) };
  } finally {
    ref.close();
  }
}

/**
 * A training step in float32 and in bfloat16 against the reference's float32 step of the same
 * run (alternateEach), as two rows: `float32` and `bfloat16`, each with `per_s` items a second.
 */
export async function precisionRows(
  stepAt: (precision?: 'bfloat16') => () => void,
  config: object,
  rounds: number,
  block: number,
  per: { name: string; count: number },
): Promise<Map<string, BenchResult>> {
  const r = await alternateEach(
    { float32: stepAt(), bfloat16: stepAt('bfloat16') },
    config,
    rounds,
    block,
  );
  const row = (ms: number): BenchResult => ({
    sjd_ms: ms,
    ref_ms: r.ref_ms,
    [per.name]: (per.count * 1000) / ms,
  });
  return new Map([
    ['float32', row(r.float32!)],
    ['bfloat16', row(r.bfloat16!)],
  ]);
}

/**
 * A task's run at the default precision (auto-precision.ts) against the same run in float32, in
 * one process, rounds interleaved: `at(p)` makes the run at setting p; the rate of `items` a
 * second each way, and `bfloat16` 1 where the default is bfloat16 for `task` here.
 */
export function defaultAgainstFloat32(
  task: string,
  at: (precision: PrecisionSetting) => () => void,
  items: { name: string; count: number },
  rounds = 3,
): BenchResult {
  const r = interleaved(at('auto'), at('float32'), rounds);
  return {
    ...r,
    [items.name]: (items.count * 1000) / r.sjd_ms,
    [`float32_${items.name}`]: (items.count * 1000) / r.ref_ms,
    bfloat16: resolvePrecision('auto', task).precision === 'bfloat16' ? 1 : 0,
  };
}
