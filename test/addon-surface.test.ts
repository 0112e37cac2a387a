// The addon's surface and its loading (src/torch/addon-api.ts, src/torch/native.ts): the built
// addon exports exactly the functions the typed table declares, a misspelled op does not
// compile, and libtorch loads on first use — never on import — with PASSIVE OpenMP waiting
// and the default thread count; a bad SJD_THREADS fails the load, naming it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism, totalmem } from 'node:os';
import { test } from 'node:test';
import { ADDON_FUNCTIONS } from '../src/torch/addon-api.js';
import * as torch from '../src/torch/index.js';
import { checkExports, native } from '../src/torch/native.js';

// dist/test/ -> <package>/build/Release/sjd_torch.node, as native.ts finds it.
const addonPath = new URL('../../build/Release/sjd_torch.node', import.meta.url).pathname;

test('the built addon exports exactly the functions the table declares', () => {
  process.env.OMP_WAIT_POLICY ??= 'PASSIVE'; // as the library sets it before loading libtorch
  const exports = createRequire(import.meta.url)(addonPath) as Record<string, unknown>;
  const built = Object.keys(exports).sort();
  const declared = [...ADDON_FUNCTIONS].sort();
  assert.equal(new Set(declared).size, declared.length, 'the table names a function twice');
  assert.deepEqual(
    {
      notDeclared: built.filter((n) => !declared.includes(n as never)),
      notBuilt: declared.filter((n) => !built.includes(n)),
    },
    { notDeclared: [], notBuilt: [] },
  );
  for (const name of built) assert.equal(typeof exports[name], 'function', name);
  // Once loaded, `native` is the addon's own export object: no stub between a call and libtorch.
  torch.zeros([1]);
  assert.equal(native, exports);
});

test('a stale addon that lacks a declared function is refused by name', () => {
  const complete = Object.fromEntries(ADDON_FUNCTIONS.map((n) => [n, () => undefined]));
  assert.equal(checkExports(complete), complete);
  const { exp: _exp, optimStep: _step, ...stale } = complete;
  assert.throws(
    () => checkExports(stale),
    /^Error: sjd: the libtorch addon lacks 'exp', 'optimStep' \(stale build\?/,
  );
});

test('a misspelled op or a wrong handle is a compile error', () => {
  // Never called: tsc fails on an unused @ts-expect-error, so these lines check the types.
  const typeChecks = () => {
    // @ts-expect-error: no such op
    native.expp(torch.ones([1]).handle);
    // @ts-expect-error: a generator handle is not an optimizer handle
    native.optimStep(new torch.TorchGenerator(0).handle);
    // @ts-expect-error: a reduction's dims are numbers
    native.sum(torch.ones([1]).handle, ['0']);
  };
  assert.equal(typeof typeChecks, 'function');
});

/** Runs `body` in a fresh Node process after importing the library; returns what it prints. */
function child(body: string, env: Record<string, string>): Record<string, unknown> {
  const { OMP_WAIT_POLICY: _omp, SJD_THREADS: _threads, ...rest } = process.env;
  const script = `
    import { readFileSync, readdirSync, statSync } from 'node:fs';
    import { availableParallelism, totalmem } from 'node:os';
    import { join } from 'node:path';
    const inMaps = () => readFileSync('/proc/self/maps', 'utf8').includes('sjd_torch.node');
    const lib = await import(${JSON.stringify(new URL('../src/index.js', import.meta.url).href)});
    const torch = lib.torch;
    const out = {};
    ${body}
    console.log(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...rest, ...env },
    encoding: 'utf8',
  });
  return JSON.parse(stdout);
}

test('importing every module leaves libtorch unloaded; the first tensor loads it', () => {
  const out = child(
    `
    out.afterIndex = [inMaps(), torch.isLoaded(), process.env.OMP_WAIT_POLICY ?? null];
    // Every module of the library (the CLI entry runs the program, so not that one).
    const dir = ${JSON.stringify(new URL('../src', import.meta.url).pathname)};
    const walk = (d) => readdirSync(d).flatMap((f) => statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]);
    out.modules = 0;
    for (const f of walk(dir)) {
      if (!f.endsWith('.js') || f.endsWith('/cli/main.js')) continue;
      await import(f);
      out.modules++;
    }
    out.afterAll = [inMaps(), torch.isLoaded()];
    torch.zeros([2]);
    out.afterTensor = [inMaps(), torch.isLoaded(), process.env.OMP_WAIT_POLICY];
    out.threads = [torch.getNumThreads(), availableParallelism()];`,
    {},
  );
  assert.deepEqual(out.afterIndex, [false, false, null]);
  assert.ok((out.modules as number) > 20, `${out.modules} modules imported`);
  assert.deepEqual(out.afterAll, [false, false]);
  assert.deepEqual(out.afterTensor, [true, true, 'PASSIVE']);
  const [threads, cores] = out.threads as number[];
  assert.equal(threads, cores);
});

test('torchVersion loads libtorch with SJD_THREADS threads and a given OMP_WAIT_POLICY', () => {
  const out = child(
    `
    out.before = [inMaps(), torch.isLoaded()];
    out.version = torch.torchVersion().torch;
    out.after = [inMaps(), torch.isLoaded(), process.env.OMP_WAIT_POLICY, torch.getNumThreads()];`,
    { SJD_THREADS: '1', OMP_WAIT_POLICY: 'ACTIVE' },
  );
  assert.deepEqual(out.before, [false, false]);
  assert.match(out.version as string, /^\d+\.\d+/);
  assert.deepEqual(out.after, [true, true, 'ACTIVE', 1]);
});

test("the load starts OpenMP and OpenBLAS at SJD_THREADS, over a caller's OMP_NUM_THREADS (their idle workers kept malloc arenas of their own)", (t) => {
  if (availableParallelism() < 2) return t.skip('needs 2 cores');
  const tasks = `
    torch.zeros([2]);
    out.env = [process.env.OMP_NUM_THREADS, process.env.OPENBLAS_NUM_THREADS];
    out.blas = torch.getBlasThreads();
    out.tasks = readdirSync('/proc/self/task').length;`;
  const one = child(tasks, { SJD_THREADS: '1', OMP_NUM_THREADS: '2', OPENBLAS_NUM_THREADS: '2' });
  const two = child(tasks, { SJD_THREADS: '2' });
  assert.deepEqual(one.env, ['1', '1']);
  assert.deepEqual(two.env, ['2', '2']);
  // at one thread no pool worker starts (before, the pools started at the cores and were cut
  // down later: as many threads at SJD_THREADS=1 as at 2); where the BLAS is OpenBLAS, as the
  // README installs it (getBlasThreads() is 0 for another, which starts no pool)
  if (two.blas === 2)
    assert.ok(
      (one.tasks as number) < (two.tasks as number),
      `${one.tasks} threads, ${two.tasks} at 2`,
    );
});

test("the addon keeps large buffers in glibc's heap and says so; SJD_MALLOC_TUNING=0 leaves glibc alone; the bench's PyTorch reference gets the same settings", async () => {
  const tuned = child('out.malloc = torch.torchVersion().malloc;', {});
  assert.deepEqual(tuned.malloc, {
    mmapThreshold: 32 * 2 ** 20,
    trimThreshold: 512 * 2 ** 20,
    topPad: 64 * 2 ** 20,
    arenaMax: 2,
    allocator: 'malloc',
    bigBufferCache: usualCap(tuned.malloc),
  });
  const plain = child('out.malloc = torch.torchVersion().malloc;', { SJD_MALLOC_TUNING: '0' });
  assert.equal(plain.malloc, null);
  const { referenceEnv } = await import('../bench/reference.js');
  const saved = process.env.GLIBC_TUNABLES;
  delete process.env.GLIBC_TUNABLES;
  try {
    assert.equal(
      referenceEnv().GLIBC_TUNABLES,
      'glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=536870912:glibc.malloc.top_pad=67108864:glibc.malloc.arena_max=2',
    );
    process.env.GLIBC_TUNABLES = 'glibc.malloc.arena_max=2';
    assert.equal(referenceEnv().GLIBC_TUNABLES, 'glibc.malloc.arena_max=2');
  } finally {
    if (saved === undefined) delete process.env.GLIBC_TUNABLES;
    else process.env.GLIBC_TUNABLES = saved;
  }
});

/**
 * The big-buffer cache's default cap: 1 GiB, or an eighth of the machine's memory where that is
 * less (the addon reads it from sysconf, os.totalmem from /proc/meminfo: equal to a page).
 */
function usualCap(m: unknown): number {
  const cap = (m as { bigBufferCache: number }).bigBufferCache;
  const eighth = totalmem() / 8;
  return eighth >= 2 ** 30 || Math.abs(cap - eighth) > 4096 ? 2 ** 30 : cap;
}

test('freed buffers of 32 MiB or more are kept for reuse up to SJD_BIG_BUFFER_CACHE_MB, oldest out first, with the values a fresh buffer gives', () => {
  // 40 MiB of float32: above glibc's largest mmap threshold, so malloc would map it afresh
  const body = `
    const n = 10 * 2 ** 20;
    const kept = () => torch.memoryStats().keptBigBuffers;
    out.cap = torch.torchVersion().malloc.bigBufferCache;
    const a = torch.full([n], 3, 'float32');
    out.inUse = kept();
    a.dispose();
    out.afterFree = kept();
    const b = torch.zeros([n], 'float32'); // takes the kept buffer: zeros are still written
    out.taken = kept();
    out.zeroSum = b.sum().item();
    const c = torch.full([n], 1, 'float32');
    b.dispose(); c.dispose();
    out.twoFreed = kept();
    const small = torch.ones([1000]); small.dispose();
    out.smallFreed = kept();`;
  const mib = 2 ** 20;
  const usual = child(body, {});
  assert.equal(usual.cap, usualCap({ bigBufferCache: usual.cap }));
  assert.equal(usual.inUse, 0);
  assert.ok((usual.afterFree as number) >= 40 * mib && (usual.afterFree as number) < 41 * mib);
  assert.equal(usual.taken, 0);
  assert.equal(usual.zeroSum, 0);
  assert.equal(usual.twoFreed, 2 * (usual.afterFree as number));
  assert.equal(usual.smallFreed, usual.twoFreed);
  // a cap of 64 MiB holds one of the two: the oldest goes back to the system
  const capped = child(body, { SJD_BIG_BUFFER_CACHE_MB: '64' });
  assert.equal(capped.cap, 64 * mib);
  assert.equal(capped.twoFreed, capped.afterFree);
  const none = child(body, { SJD_BIG_BUFFER_CACHE_MB: '0' });
  assert.deepEqual([none.afterFree, none.twoFreed, none.zeroSum], [0, 0, 0]);
});

test('a bad SJD_BIG_BUFFER_CACHE_MB fails the load naming it', () => {
  for (const v of ['abc', '-1', '1.5', '', '99999999']) {
    const out = child(
      `
      try { torch.torchVersion(); out.error = null; } catch (e) { out.error = e.message; }
      out.loaded = torch.isLoaded();`,
      { SJD_BIG_BUFFER_CACHE_MB: v },
    );
    assert.equal(
      out.error,
      `SJD_BIG_BUFFER_CACHE_MB '${v}' is invalid: expected a whole number of MiB (0 keeps none)`,
    );
    assert.equal(out.loaded, false);
  }
});

test('a bad SJD_THREADS fails the load naming it, with the bounds of --threads', () => {
  const max = availableParallelism();
  for (const v of ['abc', '0', '-1', '1.5', '', String(max + 1), '999']) {
    const out = child(
      `
      try { torch.torchVersion(); out.error = null; } catch (e) { out.error = e.message; }
      out.loaded = torch.isLoaded();`,
      { SJD_THREADS: v },
    );
    assert.equal(out.error, `SJD_THREADS '${v}' is invalid. expected an integer in [1, ${max}]`);
    assert.equal(out.loaded, false);
  }
});
