// The module base: a named registry of parameters, buffers and child modules (dotted names,
// as in PyTorch state dicts, for checkpoints), and train/eval mode.

import { pushAll } from '../../util/fold.js';
import { noGrad } from '../functional.js';
import { keep } from '../scope.js';
import type { Tensor } from '../tensor.js';

export abstract class Module {
  training = true;
  readonly #params = new Map<string, Tensor>();
  readonly #buffers = new Map<string, Tensor>();
  readonly #children = new Map<string, Module>();

  /** Registers a trainable tensor (requires_grad on; kept out of tidy scopes). */
  protected param(name: string, t: Tensor): Tensor {
    keep(t).requiresGrad_(true);
    this.#params.set(name, t);
    return t;
  }
  /** Registers a non-trainable tensor that belongs to the state dict. */
  protected buffer(name: string, t: Tensor): Tensor {
    this.#buffers.set(name, keep(t));
    return t;
  }
  protected child<M extends Module>(name: string, m: M): M {
    this.#children.set(name, m);
    return m;
  }

  namedParameters(prefix = ''): [string, Tensor][] {
    const out: [string, Tensor][] = [...this.#params].map(([k, v]) => [prefix + k, v]);
    for (const [k, m] of this.#children) pushAll(out, m.namedParameters(`${prefix}${k}.`));
    return out;
  }
  namedBuffers(prefix = ''): [string, Tensor][] {
    const out: [string, Tensor][] = [...this.#buffers].map(([k, v]) => [prefix + k, v]);
    for (const [k, m] of this.#children) pushAll(out, m.namedBuffers(`${prefix}${k}.`));
    return out;
  }
  parameters(): Tensor[] {
    return this.namedParameters().map(([, p]) => p);
  }
  numParameters(): number {
    return this.parameters().reduce((n, p) => n + p.numel, 0);
  }

  /** Parameters and buffers by dotted name. */
  stateDict(): Record<string, Tensor> {
    return Object.fromEntries([...this.namedParameters(), ...this.namedBuffers()]);
  }
  /** Copies values in (shapes must match); every entry must be present in both. */
  loadStateDict(dict: Record<string, Tensor>): void {
    const own = this.stateDict();
    const missing = Object.keys(own).filter((k) => !(k in dict));
    const extra = Object.keys(dict).filter((k) => !(k in own));
    if (missing.length > 0) throw new Error(`state dict lacks ${missing.join(', ')}`);
    if (extra.length > 0) throw new Error(`state dict has unknown entries ${extra.join(', ')}`);
    noGrad(() => {
      for (const [k, t] of Object.entries(own)) {
        const src = dict[k]!;
        if (src.shape.join(',') !== t.shape.join(',')) {
          throw new Error(
            `state dict entry ${k}: shape [${src.shape}] where [${t.shape}] is expected`,
          );
        }
        t.copy_(src);
      }
    });
  }

  train(on = true): this {
    this.training = on;
    for (const m of this.#children.values()) m.train(on);
    return this;
  }
  eval(): this {
    return this.train(false);
  }
}
