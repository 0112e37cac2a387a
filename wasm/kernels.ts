// The TypeScript backend's WebAssembly module (AssemblyScript; compiled by
// scripts/build-wasm.mjs into src/torch/js/kernels-wasm.ts, instantiated once by
// src/torch/js/wasm-module.ts): its kernels share one memory, so an operand copied in for one
// is there for the next.
export { binary } from './binary';
export { gelu, softmax } from './elementwise';
export { gather } from './gather';
export { gemm } from './gemm';
export { layerNorm } from './norm';
