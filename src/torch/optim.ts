// Optimisers from libtorch (torch::optim::AdamW, SGD), driven with a per-step learning rate
// (docs/design.md §3); their state goes to and from named tensors for exact resume.
import { native, type OptHandle } from './native.js';
import { Tensor } from './tensor.js';

export interface ParamGroup {
  params: Tensor[];
  /** Overrides the optimiser's weight decay for this group (e.g. 0 for biases and norms). */
  weightDecay?: number;
}

export interface AdamWOptions {
  lr?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
}

export interface SGDOptions {
  lr: number;
  momentum?: number;
  dampening?: number;
  weightDecay?: number;
  nesterov?: boolean;
}

/** Per-parameter optimiser state: scalars and buffers. */
export type ParamState = Record<string, number | Tensor> | null;

export class Optimizer {
  readonly handle: OptHandle;
  readonly params: Tensor[];

  protected constructor(kind: 'adamw' | 'sgd', groups: Tensor[] | ParamGroup[], options: object) {
    const gs: ParamGroup[] =
      groups.length > 0 && groups[0] instanceof Tensor
        ? [{ params: groups as Tensor[] }]
        : (groups as ParamGroup[]);
    this.params = gs.flatMap((g) => g.params);
    this.handle = native.newOptimizer(
      kind,
      gs.map((g) => ({ params: g.params.map((p) => p.handle), weightDecay: g.weightDecay })),
      options,
    );
  }

  /** One update; lr, when given, becomes every group's learning rate first. */
  step(lr?: number): void {
    native.optimStep(this.handle, lr);
  }
  zeroGrad(): void {
    native.optimZeroGrad(this.handle);
  }
  /** The state of each parameter, in order (copies). */
  getState(): ParamState[] {
    return native
      .optimGetState(this.handle)
      .map((s) =>
        s === null
          ? null
          : Object.fromEntries(
              Object.entries(s).map(([k, v]) => [k, typeof v === 'number' ? v : new Tensor(v)]),
            ),
      );
  }
  setState(states: ParamState[]): void {
    native.optimSetState(
      this.handle,
      states.map((s) =>
        s === null
          ? null
          : Object.fromEntries(
              Object.entries(s).map(([k, v]) => [k, v instanceof Tensor ? v.handle : v]),
            ),
      ),
    );
  }
}

export class AdamW extends Optimizer {
  constructor(params: Tensor[] | ParamGroup[], options: AdamWOptions = {}) {
    super('adamw', params, options);
  }
}

export class SGD extends Optimizer {
  constructor(params: Tensor[] | ParamGroup[], options: SGDOptions) {
    super('sgd', params, options);
  }
}
