// Loads the libtorch addon (DESIGN.md §3). OMP_WAIT_POLICY=PASSIVE must be in the environment
// before libtorch (and its OpenMP runtime) loads: with busy-waiting workers training steps run
// 1.8-3.6x slower on these 2-core machines. The intra-op thread count defaults to the cores
// this process may use (SJD_THREADS overrides; setNumThreads changes it later).
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';

process.env.OMP_WAIT_POLICY ??= 'PASSIVE';

/** An opaque libtorch tensor handle (a tagged N-API External). */
export type Handle = { readonly __tensor: unique symbol };
/** An opaque libtorch generator handle. */
export type GenHandle = { readonly __generator: unique symbol };
/** An opaque libtorch optimizer handle. */
export type OptHandle = { readonly __optimizer: unique symbol };

// biome-ignore lint/suspicious/noExplicitAny: the addon's surface is typed by the wrappers.
export type Native = Record<string, (...args: any[]) => any>;

const require = createRequire(import.meta.url);
// dist/src/torch/native.js -> <package>/build/Release/sjd_torch.node
const addonPath = new URL('../../../build/Release/sjd_torch.node', import.meta.url).pathname;

function load(): Native {
  try {
    return require(addonPath) as Native;
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new Error(
      `sjd: cannot load the libtorch addon (${msg}); install libtorch-dev and run 'npm ci' (or 'npm run build:native')`,
    );
  }
}

export const native: Native = load();

const envThreads = Number.parseInt(process.env.SJD_THREADS ?? '', 10);
native.setNumThreads(
  Number.isFinite(envThreads) && envThreads > 0 ? envThreads : availableParallelism(),
);

/** Sets the number of intra-op threads libtorch uses. */
export function setNumThreads(n: number): void {
  native.setNumThreads(n);
}

/** The number of intra-op threads libtorch uses. */
export function getNumThreads(): number {
  return native.getNumThreads();
}

/** libtorch's version and build, and whether CUDA is available. */
export function torchVersion(): {
  torch: string;
  cuda: boolean;
  cudaDevices: number;
  config: string;
} {
  return native.version();
}

/** Live tensor handles and the bytes they hold (CPU), as told to V8. */
export function memoryStats(): { liveTensors: number; tensorBytes: number } {
  return native.memoryStats();
}
