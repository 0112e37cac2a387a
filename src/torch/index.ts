// The tensor layer of sjd: libtorch through our addon, or the TypeScript backend where the addon
// does not load (docs/design.md §3, §3b).
export * as distributed from './distributed.js';
export * from './factories.js';
export * from './functional.js';
export {
  BACKENDS,
  type BackendName,
  backend,
  isLoaded,
  LIBTORCH_FIX,
  requireLibtorch,
  THREAD_RANGE,
  withBackend,
} from './native.js';
export * as nn from './nn/index.js';
export { AdamW, Optimizer, type ParamGroup, type ParamState, SGD } from './optim.js';
export { type OpProfile, profileOps } from './profile.js';
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
export {
  type AutocastDtype,
  autocast,
  defaultDevice,
  getAllowTF32,
  getBlasThreads,
  getNumThreads,
  memoryStats,
  setAllowTF32,
  setDefaultDevice,
  setNumThreads,
  torchVersion,
  withParallelThreads,
} from './settings.js';
export { type DType, type Operand, type Reduction, Tensor, type TypedArray } from './tensor.js';
