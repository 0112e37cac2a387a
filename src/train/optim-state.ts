// AdamW's state (step, first and second moments per parameter) as named tensors, keyed by the
// parameter's name in the model, so a checkpoint restores it whatever the parameter order.
import type { Optimizer, Tensor } from '../torch/index.js';

export interface SavedOptimState {
  tensors: Record<string, Tensor>; // `${name}.exp_avg`, `${name}.exp_avg_sq`
  steps: Record<string, number>; // name -> AdamW step count
}

export function saveOptimState(opt: Optimizer, names: Map<Tensor, string>): SavedOptimState {
  const out: SavedOptimState = { tensors: {}, steps: {} };
  opt.getState().forEach((s, i) => {
    if (s === null) return;
    const k = names.get(opt.params[i]!)!;
    out.steps[k] = s.step as number;
    out.tensors[`${k}.exp_avg`] = s.exp_avg as Tensor;
    out.tensors[`${k}.exp_avg_sq`] = s.exp_avg_sq as Tensor;
  });
  return out;
}

export function loadOptimState(
  opt: Optimizer,
  names: Map<Tensor, string>,
  saved: SavedOptimState,
): void {
  opt.setState(
    opt.params.map((p) => {
      const k = names.get(p)!;
      return k in saved.steps
        ? {
            step: saved.steps[k]!,
            exp_avg: saved.tensors[`${k}.exp_avg`]!,
            exp_avg_sq: saved.tensors[`${k}.exp_avg_sq`]!,
          }
        : null;
    }),
  );
}
