// Exponential moving average of the parameters (shadow <- decay shadow + (1 - decay) param,
// with the usual warm-up of the decay),
// kept in float32 copies; its state dict replaces the model's for evaluation and shipping.
import { keep, type nn, noGrad, type Tensor, tidy } from '../torch/index.js';

export class EMA {
  readonly shadow: Map<string, Tensor>;

  constructor(
    readonly model: nn.Module,
    readonly decay: number,
  ) {
    if (!(decay >= 0 && decay < 1)) throw new Error(`EMA decay must be in [0, 1), got ${decay}`);
    this.shadow = new Map(model.namedParameters().map(([k, p]) => [k, keep(p.detach().clone())]));
  }

  /**
   * One update after optimiser step `step` (1-based); the decay warms up as
   * min(decay, (1 + step) / (10 + step)) so early averages are not dominated by the init.
   */
  update(step: number): void {
    const decay = Math.min(this.decay, (1 + step) / (10 + step));
    tidy(() =>
      noGrad(() => {
        for (const [k, p] of this.model.namedParameters())
          this.shadow.get(k)!.lerp_(p.detach(), 1 - decay);
      }),
    );
  }

  /** The model's state dict with the averaged parameters (buffers from the model). */
  stateDict(): Record<string, Tensor> {
    return { ...this.model.stateDict(), ...Object.fromEntries(this.shadow) };
  }

  load(dict: Record<string, Tensor>): void {
    noGrad(() => {
      for (const [k, t] of this.shadow) {
        const src = dict[k];
        if (!src) throw new Error(`EMA state lacks ${k}`);
        t.copy_(src);
      }
    });
  }
}
