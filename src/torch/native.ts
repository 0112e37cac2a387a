// Loads the tensor backend (docs/design.md §3, §3b) on first use, not at import: `sjd --help` and
// bad flags never wait for libtorch (1-3 s). Until then `native` holds one stub per function of the
// table in addon-api.ts; the first call loads a backend and `native` becomes its table, so later
// calls reach it with no indirection of ours. The backend is the libtorch addon where it loads,
// else the TypeScript backend (js/backend.ts: models run, training is refused naming libtorch);
// SJD_BACKEND=torch or js chooses one (torch then fails to load as before, naming the fix).
// OMP_WAIT_POLICY=PASSIVE must be in the environment before libtorch (and its OpenMP runtime)
// loads: with busy-waiting workers training steps run 1.8-3.6x slower on these 2-core machines.
// The intra-op thread count defaults to the cores this process may use (SJD_THREADS overrides,
// an integer from 1 to those cores, else loading fails naming it; setNumThreads changes it
// later); the default device is the CPU (SJD_DEVICE overrides, as the CUDA test run of
// scripts/device.sh does, else loading fails naming it; setDefaultDevice changes it later).
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { intIn } from '../util/integer.js';
import { PACKAGE_ROOT } from '../util/package-root.js';
import { ADDON_FUNCTIONS, isNative, missingFunctions, type Native } from './addon-api.js';
import { jsBackend, LIBTORCH_FIX, refusal } from './js/backend.js';

export type {
  BinaryOp,
  GenHandle,
  GroupHandle,
  Handle,
  HandleOrScalar,
  Native,
  OptHandle,
  UnaryOp,
} from './addon-api.js';

const require = createRequire(import.meta.url);

/** Checks that a loaded export object has every function of the table; returns it typed. */
export function checkExports(exports: Record<string, unknown>): Native {
  if (isNative(exports)) return exports;
  const missing = missingFunctions(exports);
  throw new Error(
    `sjd: the libtorch addon lacks ${missing.map((m) => `'${m}'`).join(', ')} (stale build? run 'npm run build:native')`,
  );
}

/** The thread counts libtorch may be given (--threads, SJD_THREADS): 1 to the cores this process may use. */
export const THREAD_RANGE = { min: 1, max: availableParallelism() } as const;

/** SJD_THREADS, checked as --threads is (throws naming it); unset, the cores this process may use. */
function envThreads(): number {
  const v = process.env.SJD_THREADS;
  if (v === undefined) return THREAD_RANGE.max;
  try {
    return intIn(v, THREAD_RANGE.min, THREAD_RANGE.max);
  } catch (e) {
    throw new Error(`SJD_THREADS '${v}' is invalid. ${(e as Error).message}`);
  }
}

/**
 * SJD_BIG_BUFFER_CACHE_MB, which the addon reads as it loads (native/cpu_allocator.cc): a whole
 * number of MiB, checked here so that a bad value is refused in one line naming it.
 */
function checkBigBufferCache(): void {
  const v = process.env.SJD_BIG_BUFFER_CACHE_MB;
  if (v !== undefined && !/^\d{1,7}$/.test(v))
    throw new Error(
      `SJD_BIG_BUFFER_CACHE_MB '${v}' is invalid: expected a whole number of MiB (0 keeps none)`,
    );
}

/** The backends by SJD_BACKEND's names. */
export type BackendName = 'torch' | 'js';
export const BACKENDS: readonly BackendName[] = ['torch', 'js'];

/** SJD_BACKEND, checked (throws naming it); undefined when unset (the addon where it loads). */
function envBackend(): BackendName | undefined {
  const v = process.env.SJD_BACKEND;
  if (v === undefined || v === '') return undefined;
  if (!(BACKENDS as readonly string[]).includes(v))
    throw new Error(
      `SJD_BACKEND '${v}' is invalid: expected torch (the libtorch addon) or js (the TypeScript backend)`,
    );
  return v as BackendName;
}

/** The backend this process runs and, for the TypeScript one, why (null until loaded). */
let chosen: { name: BackendName; why: string } | null = null;

function load(): Native {
  const want = envBackend();
  if (want === 'js') {
    chosen = { name: 'js', why: 'SJD_BACKEND=js' };
    return jsBackend;
  }
  try {
    const typed = theAddon();
    chosen = { name: 'torch', why: want === 'torch' ? 'SJD_BACKEND=torch' : 'the addon loaded' };
    return typed;
  } catch (e) {
    // only a missing or unloadable addon falls back; a bad setting (SJD_THREADS, ...) is refused
    if (want === 'torch' || !(e instanceof AddonMissing)) throw e;
    chosen = { name: 'js', why: `the libtorch addon did not load: ${e.message}` };
    return jsBackend;
  }
}

let addonTable: Native | null = null;
/** The addon, loaded once. */
function theAddon(): Native {
  addonTable ??= loadAddon();
  return addonTable;
}

/** The addon could not be loaded (not built, or built against a libtorch that is gone). */
class AddonMissing extends Error {}

/**
 * The backend this process runs (loading it): its name, a short label for a command's first line
 * ('libtorch 1.13.0' or 'TypeScript backend'), and why it was chosen.
 */
export function backend(): { name: BackendName; label: string; why: string } {
  addon();
  const c = chosen!;
  return {
    ...c,
    label: c.name === 'torch' ? `libtorch ${loaded!.version().torch}` : 'TypeScript backend',
  };
}

/** What a user does to have the libtorch backend (the TypeScript one refuses training with it). */
export { LIBTORCH_FIX };

/**
 * fn() on the backend `name` (the benchmarks compare the two in one process), the backend before
 * restored after. Tensors belong to the backend that made them: one made inside is for fn alone,
 * and one from outside is refused by the other backend ("expected a tensor").
 */
export function withBackend<T>(name: BackendName, fn: () => T): T {
  const before = addon();
  const table = name === 'js' ? jsBackend : theAddon();
  const chose = chosen;
  native = table;
  loaded = table;
  chosen = { name, why: 'withBackend' };
  try {
    return fn();
  } finally {
    native = before;
    loaded = before;
    chosen = chose;
  }
}

/** Throws, naming libtorch, when this process runs the TypeScript backend: `what` needs libtorch. */
export function requireLibtorch(what: string): void {
  if (backend().name === 'js') throw refusal(what);
}

function loadAddon(): Native {
  checkBigBufferCache();
  process.env.OMP_WAIT_POLICY ??= 'PASSIVE';
  // OpenMP's and OpenBLAS's worker pools start at the count libtorch will be given (setNumThreads
  // then sets it, as before, over any OMP_NUM_THREADS of the caller's): OpenBLAS starts its pool
  // when it loads, before the addon caps glibc's malloc arenas (native/runtime.cc TuneMalloc), and
  // an unused worker's arena still kept freed buffers (the samplers' oracle test under node
  // --test at SJD_THREADS=1: 7.1 GB resident, 1.2 GB with the pools started at one thread).
  const threads = envThreads();
  process.env.OMP_NUM_THREADS = String(threads);
  process.env.OPENBLAS_NUM_THREADS = String(threads);
  // libtorch's own log lines (glog in Debian's 1.13, c10's logger in 2.x; e.g. a c10d socket
  // timing out) would come on top of the one-line error sjd prints for the same failure: only
  // fatal ones are printed unless the user sets these.
  process.env.GLOG_minloglevel ??= '3';
  process.env.TORCH_CPP_LOG_LEVEL ??= 'FATAL';
  let exports: Record<string, unknown>;
  try {
    // node-gyp-build: build/Release/sjd_torch.node, or a prebuilt addon in prebuilds/<platform-arch>/
    const loadBinding = require('node-gyp-build') as (dir: string) => Record<string, unknown>;
    exports = loadBinding(PACKAGE_ROOT);
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new AddonMissing(
      `sjd: cannot load the libtorch addon (${msg}); install libtorch-dev and run 'npm rebuild sjd' (in a checkout: 'npm run build:native')`,
    );
  }
  const typed = checkExports(exports);
  typed.setNumThreads(threads);
  if (process.env.SJD_DEVICE !== undefined) {
    // an empty SJD_DEVICE is refused as any other bad value, naming the variable
    try {
      typed.setDefaultDevice(process.env.SJD_DEVICE);
    } catch (e) {
      throw new Error(`SJD_DEVICE: ${(e as Error).message}`);
    }
  }
  return typed;
}

let loaded: Native | null = null;

function stubs(): Native {
  const out: Record<string, unknown> = {};
  for (const name of ADDON_FUNCTIONS) {
    out[name] = (...args: unknown[]) => (addon()[name] as (...a: unknown[]) => unknown)(...args);
  }
  return out as Native;
}

/** The addon's functions (a live binding: stubs until the first call, then the addon's own). */
export let native: Native = stubs();

/** The loaded addon (loads it on the first call). */
function addon(): Native {
  if (loaded === null) {
    loaded = load();
    native = loaded;
  }
  return loaded;
}

/** Whether libtorch has been loaded into this process. */
export function isLoaded(): boolean {
  return loaded !== null;
}
