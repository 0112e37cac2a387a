// The TypeScript backend's WebAssembly module (wasm/kernels.ts, its bytes as base64 in
// kernels-wasm.ts): instantiated once, synchronously (a few KiB, within what browsers compile on
// the main thread), or null where this runtime lacks WebAssembly SIMD. Its memory holds, from
// BASE, the weights that wasm-gemm.ts keeps transposed, and after them the operands of the call
// under way, laid out by a Scratch.
import { KERNELS_WASM } from './kernels-wasm.js';

/** The module's exports (wasm/kernels.ts), addresses in bytes. */
export interface Kernels {
  memory: WebAssembly.Memory;
  gemm: (
    a: number,
    b: number,
    c: number,
    M: number,
    K: number,
    N: number,
    bias: number,
    lda: number,
    ldb: number,
  ) => void;
  gelu: (p: number, n: number) => void;
  softmax: (p: number, rows: number, n: number, log: number) => void;
  gather: (src: number, dst: number, ...shapeThenStrides: number[]) => void;
  binary: (
    op: number,
    out: number,
    a: number,
    b: number,
    n0: number,
    n1: number,
    n2: number,
    sa0: number,
    sa1: number,
    ua: number,
    sb0: number,
    sb1: number,
    ub: number,
  ) => void;
  layerNorm: (
    x: number,
    o: number,
    groups: number,
    inner: number,
    eps: number,
    scale: number,
    shift: number,
  ) => void;
}

/** Every function of Kernels: a module built from other sources is not used. */
const KERNEL_FUNCTIONS = [
  'gemm',
  'gelu',
  'softmax',
  'gather',
  'binary',
  'layerNorm',
] as const satisfies readonly Exclude<keyof Kernels, 'memory'>[];

const isKernels = (e: WebAssembly.Exports): e is WebAssembly.Exports & Kernels =>
  e.memory instanceof WebAssembly.Memory &&
  KERNEL_FUNCTIONS.every((name) => typeof e[name] === 'function');

let instance: Kernels | null | undefined;

/** The instantiated module, or null where it cannot run here. */
export function kernels(): Kernels | null {
  if (instance !== undefined) return instance;
  try {
    const bytes = Uint8Array.from(atob(KERNELS_WASM), (c) => c.charCodeAt(0));
    const abort = () => {
      throw new Error('a WebAssembly kernel aborted');
    };
    const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { abort } });
    instance = isKernels(inst.exports) ? inst.exports : null;
  } catch {
    instance = null;
  }
  return instance;
}

/** The first bytes of the memory stay the module's own; kept weights start here. */
export const BASE = 64;

/** The end of the kept weights (wasm-gemm.ts moves it): a call's operands go after it. */
let keptEnd = BASE;
export const keptBytesEnd = (): number => keptEnd;
export function setKeptBytesEnd(at: number): void {
  keptEnd = at;
}

/**
 * The storage range [offset, hi) a view reads: `sizes` over `strides` (elements) from `offset`;
 * null where a stride is negative (the kernels copy a span in forward).
 */
export function viewSpan(
  offset: number,
  sizes: readonly number[],
  strides: readonly number[],
): [number, number] | null {
  let hi = offset + 1;
  for (let d = 0; d < sizes.length; d++) {
    if (strides[d]! < 0) return null;
    hi += strides[d]! * (sizes[d]! - 1);
  }
  return [offset, hi];
}

/** A call's operands laid out one after another past the kept weights, each 16-byte aligned. */
export class Scratch {
  #end = (keptEnd + 15) & ~15;

  /** The byte address of room for `floats` float32. */
  alloc(floats: number): number {
    const at = this.#end;
    this.#end = (at + 4 * floats + 15) & ~15;
    return at;
  }

  /** A float32 view of the whole memory, grown to hold everything allocated. */
  view(k: Kernels): Float32Array {
    const have = k.memory.buffer.byteLength;
    if (this.#end > have) k.memory.grow(Math.ceil((this.#end - have) / 65536));
    return new Float32Array(k.memory.buffer);
  }
}
