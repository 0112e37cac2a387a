// The tensor layer of sjd: libtorch through our addon, or the TypeScript backend where the addon
// does not load (docs/design.md §3, §3b).
export * as distributed from './distributed.js';
export * from './factories.js';
export * from './functional.js';
export {
  type AutocastDtype,
  autocast,
  BACKENDS,
  type BackendName,
  backend,
  defaultDevice,
  getAllowTF32,
  getBlasThreads,
  getNumThreads,
  isLoaded,
  LIBTORCH_FIX,
  memoryStats,
  requireLibtorch,
  setAllowTF32,
  setDefaultDevice,
  setNumThreads,
  THREAD_RANGE,
  torchVersion,
  withBackend,
  withParallelThreads,
} from './native.js';
export * as nn from './nn/index.js';
export { AdamW, Optimizer, type ParamGroup, type ParamState, SGD } from './optim.js';
export { defaultGenerator, manualSeed, randnByRow, TorchGenerator } from './random.js';
export {
  type AddonBuild,
  addonBuild,
  type CpuInfo,
  cpuInfo,
  describeCpu,
  loadedLibraries,
} from './runtime-info.js';
export {
  decodeSafetensors,
  encodeSafetensors,
  loadSafetensors,
  saveSafetensors,
} from './safetensors.js';
export { keep, scopeDepth, tidy } from './scope.js';
export { type DType, type Operand, type Reduction, Tensor, type TypedArray } from './tensor.js';
