// The TypeScript backend (docs/design.md §3b): the addon's whole table (addon-api.ts) implemented
// in TypeScript over strided typed arrays (tensor-data.ts), so that the same processes, samplers,
// models and tasks run where libtorch does not: on any Node, and in a browser. It runs models
// (inference): every op the samplers, the three tasks' networks and their sampling paths call.
// Autograd's backward pass, the optimisers, torch.distributed and the op profiler are libtorch's:
// each is refused in one line that names libtorch (JS_REFUSED). It computes on the CPU in one thread; autocast's
// bfloat16 is computed in float32 here (recorded, not applied), so a bfloat16 model gives
// float32's numbers.
import { isNative, missingFunctions, type Native } from '../addon-api.js';
import { defineData, defineDraws, defineRuntime } from './table-data.js';
import { type Def, state, T } from './table-kit.js';
import {
  defineElementwise,
  defineInPlace,
  defineLayout,
  defineNetwork,
  defineReductions,
} from './table-ops.js';

/** The fix a refused op's error names. */
export const LIBTORCH_FIX =
  "install libtorch (apt-get install libtorch-dev) and run 'npm rebuild sjd': the addon is then used where it loads";

/** The table's functions this backend refuses, each in one line naming libtorch. */
export const JS_REFUSED = [
  'backward',
  'clipGradNorm',
  'newOptimizer',
  'optimStep',
  'optimZeroGrad',
  'optimGetState',
  'optimSetState',
  'newProcessGroup',
  'pgAllReduce',
  'pgBroadcast',
  'pgAllGather',
  'pgBarrier',
  'pgInfo',
  'pgDestroy',
  'profileStart',
  'profileStop',
] as const;

const WHAT: Record<(typeof JS_REFUSED)[number], string> = {
  backward: 'training (autograd)',
  clipGradNorm: 'training (autograd)',
  newOptimizer: 'training (the optimisers)',
  optimStep: 'training (the optimisers)',
  optimZeroGrad: 'training (the optimisers)',
  optimGetState: 'training (the optimisers)',
  optimSetState: 'training (the optimisers)',
  newProcessGroup: 'data-parallel training (torch.distributed)',
  pgAllReduce: 'data-parallel training (torch.distributed)',
  pgBroadcast: 'data-parallel training (torch.distributed)',
  pgAllGather: 'data-parallel training (torch.distributed)',
  pgBarrier: 'data-parallel training (torch.distributed)',
  pgInfo: 'data-parallel training (torch.distributed)',
  pgDestroy: 'data-parallel training (torch.distributed)',
  profileStart: "libtorch's op profiler",
  profileStop: "libtorch's op profiler",
};

export const refusal = (what: string) =>
  new Error(
    `${what} needs the libtorch backend; this process runs the TypeScript backend (${LIBTORCH_FIX})`,
  );

function buildTable(): Record<string, (...a: never[]) => unknown> {
  const t: Record<string, (...a: never[]) => unknown> = {};
  const def: Def = (name, f) => {
    t[name] = f as (...a: never[]) => unknown;
  };
  for (const define of [
    defineRuntime,
    defineData,
    defineDraws,
    defineElementwise,
    defineReductions,
    defineLayout,
    defineNetwork,
    defineInPlace,
    defineAutograd,
  ])
    define(def);
  return t;
}

/** Autograd: flags kept (models mark their parameters), the backward pass and the rest refused. */
function defineAutograd(def: Def): void {
  def('setRequiresGrad', (h, on = true) => {
    T(h).requiresGrad = on;
  });
  def('grad', (h) => {
    T(h);
    return null;
  });
  def('clearGrad', (h) => void T(h));
  def('setGradEnabled', (on: boolean) => {
    state.gradEnabled = on;
  });
  def('isGradEnabled', () => state.gradEnabled);
  for (const name of JS_REFUSED)
    def(name, () => {
      throw refusal(WHAT[name]);
    });
}

/** The TypeScript backend's table, typed as the addon's once every function is checked there. */
export const jsBackend: Native = (() => {
  const table = buildTable();
  if (isNative(table)) return table;
  throw new Error(`the TypeScript backend lacks ${missingFunctions(table).join(', ')}`);
})();
