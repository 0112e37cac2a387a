// What the TypeScript backend's table (backend.ts) is built with: `def` to enter a function, the
// checks that turn a handle into this backend's tensor, the count of tensors handed out, and the
// state the runtime functions keep (grad mode, autocast's dtype).
import { handOut } from './buffers.js';
import { JsTensor, values, view } from './tensor-data.js';

/** Enters a function of the table under its name (its type is the table's: addon-api.ts). */
// biome-ignore lint/suspicious/noExplicitAny: each entry's type is the table's (addon-api.ts); jsBackend is typed as it
export type Def = (name: string, f: (...a: any[]) => unknown) => void;

/** A handle as this backend's tensor (throws on anything else, or a disposed one). */
export function T(h: unknown, what = 'tensor'): JsTensor {
  if (!(h instanceof JsTensor)) throw new TypeError(`${what}: expected a tensor`);
  if (h.disposed) throw new Error(`${what}: tensor was disposed`);
  return h;
}
/** A tensor-or-scalar operand. */
export const TS = (x: unknown): JsTensor | number | boolean =>
  typeof x === 'number' || typeof x === 'boolean' ? x : T(x, 'operand');
export const opt = (x: unknown) => (x === null || x === undefined ? null : T(x));

/** A result that is one of its inputs comes back as a new handle on the same elements. */
export function fresh(r: JsTensor, ...inputs: unknown[]): JsTensor {
  return inputs.includes(r) ? view(r, r.shape, r.strides, r.offset) : r;
}

export function checkDevice(device: string | undefined): void {
  if (device !== undefined && device !== 'cpu')
    throw new Error(`device '${device}': the TypeScript backend runs on the CPU only`);
}

/** What the runtime functions keep: grad mode, autocast's dtype (recorded), tensors alive. */
export const state = {
  gradEnabled: true,
  autocastDtype: null as 'bfloat16' | 'float16' | null,
  live: 0,
};

/** Every tensor this backend hands out is counted until disposed (memoryStats). */
export const out = (t: JsTensor): JsTensor => {
  state.live++;
  handOut(t);
  return t;
};

/** A readable print of a tensor (its elements, shape and dtype), as a debugging aid. */
export function format(t: JsTensor): string {
  const v = Array.from(values(t) as ArrayLike<number>);
  const shown = v.length > 20 ? [...v.slice(0, 10), '...', ...v.slice(-10)] : v;
  return `tensor([${shown.join(', ')}], shape=[${t.shape.join(', ')}], dtype=${t.dtype})`;
}
