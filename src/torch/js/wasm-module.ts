// The TypeScript backend's WebAssembly modules (wasm/*.ts, their bytes as base64 in
// src/torch/js/*-wasm.ts): each instantiated once, synchronously (a few KiB, within what browsers
// compile on the main thread), or null where this runtime lacks WebAssembly SIMD; and float32
// views of a module's memory grown to what a call needs.

/** A module's exports and its memory, or null where it cannot run here. */
export function instantiate<E>(base64: string): (E & { memory: WebAssembly.Memory }) | null {
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const abort = () => {
      throw new Error('a WebAssembly kernel aborted');
    };
    const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { abort } });
    return inst.exports as unknown as E & { memory: WebAssembly.Memory };
  } catch {
    return null;
  }
}

/** The first bytes of a module's memory stay its own; calls use what follows. */
export const BASE = 64;

/** A float32 view of `memory` holding at least `bytes` bytes from its start (grown if needed). */
export function float32Memory(memory: WebAssembly.Memory, bytes: number): Float32Array {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / 65536));
  return new Float32Array(memory.buffer);
}
