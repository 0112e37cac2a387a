// libtorch's op profiler (native/profiler.cc, PyTorch's legacy autograd profiler) around one
// function: every aten op it ran, the backward pass's and the optimiser's included, by name with
// its calls and its total and self CPU time in microseconds. bench/profile.ts sets a training
// step's profile beside PyTorch's. The TypeScript backend refuses it, naming libtorch.
import { native } from './native.js';

/** One op's share of a profile. */
export interface OpProfile {
  name: string; // the aten op ('aten::mm') or autograd node ('MmBackward0')
  calls: number;
  totalUs: number; // with the ops it called
  selfUs: number; // without them
}

/** fn()'s result and the ops it ran, by self time, most first; the profiler stops however fn ends. */
export function profileOps<T>(fn: () => T): { result: T; ops: OpProfile[] } {
  native.profileStart();
  let result: T;
  try {
    result = fn();
  } catch (e) {
    native.profileStop();
    throw e;
  }
  const ops = native.profileStop().sort((a, b) => b.selfUs - a.selfUs);
  return { result, ops };
}
