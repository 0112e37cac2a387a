// Locates libtorch for binding.gyp, the way the Rust binding `tch` does (DESIGN.md §3):
// `LIBTORCH=/path` names a libtorch folder (include/, lib/; e.g. the `torch/` folder of a
// PyTorch wheel, which brings CUDA on GPU machines); otherwise Debian's `libtorch-dev` paths.
// The C++ standard follows the libtorch version (C++20 from 2.10 on, which newer ATen headers
// require; C++17 before), and c10d/Gloo are compiled in only where their headers are
// (SJD_DISTRIBUTED=0 in the environment turns them off), and PyTorch's fused AdamW kernel is
// used on CUDA where the headers declare it (2.x; SJD_FUSED_ADAMW=0 turns it off). One source
// serves 1.13 and 2.x.
// Usage: node native/find-libtorch.mjs include|libdir|libs|defines|cxxflags
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.env.LIBTORCH;
const debianLib = '/usr/lib/x86_64-linux-gnu';

function paths() {
  if (root) {
    const include = join(root, 'include');
    const libdir = join(root, 'lib');
    if (!existsSync(join(include, 'ATen', 'ATen.h'))) {
      throw new Error(`LIBTORCH=${root}: no include/ATen/ATen.h there`);
    }
    return { include: [include, join(include, 'torch/csrc/api/include')], libdir };
  }
  if (!existsSync('/usr/include/ATen/ATen.h')) {
    throw new Error('libtorch not found: install Debian package libtorch-dev or set LIBTORCH=/path');
  }
  return { include: ['/usr/include', '/usr/include/torch/csrc/api/include'], libdir: debianLib };
}

// Pre-2.7 PyTorch wheels were built with the old C++ ABI; TorchConfig.cmake says which.
function abiDefine() {
  if (!root) return '_GLIBCXX_USE_CXX11_ABI=1';
  const cfg = join(root, 'share/cmake/Torch/TorchConfig.cmake');
  const m = existsSync(cfg) && /_GLIBCXX_USE_CXX11_ABI=(\d)/.exec(readFileSync(cfg, 'utf8'));
  return `_GLIBCXX_USE_CXX11_ABI=${m ? m[1] : '1'}`;
}

/** [major, minor] from torch/version.h */
function torchVersion(include) {
  const h = join(include, 'torch/csrc/api/include/torch/version.h');
  const text = existsSync(h) ? readFileSync(h, 'utf8') : '';
  const num = (k) => Number((new RegExp(`#define TORCH_VERSION_${k} (\\d+)`).exec(text) ?? [])[1] ?? 0);
  return [num('MAJOR'), num('MINOR')];
}

function distributed(include) {
  if (process.env.SJD_DISTRIBUTED === '0') return false;
  return (
    existsSync(join(include, 'torch/csrc/distributed/c10d/ProcessGroupGloo.hpp')) &&
    existsSync(join(include, 'gloo/algorithm.h'))
  );
}

function fusedAdamW(include) {
  return process.env.SJD_FUSED_ADAMW !== '0' && existsSync(join(include, 'ATen/ops/_fused_adamw.h'));
}

const p = paths();
const [major, minor] = torchVersion(p.include[0]);
const cuda = existsSync(join(p.libdir, 'libtorch_cuda.so'));
const what = process.argv[2];
if (what === 'include') console.log(p.include.join(' '));
else if (what === 'libdir') console.log(p.libdir);
else if (what === 'libs') {
  const libs = ['-ltorch', '-ltorch_cpu', '-lc10'];
  // --no-as-needed keeps libtorch_cuda linked so its CUDA kernels register at load.
  if (cuda) libs.unshift('-Wl,--no-as-needed', '-ltorch_cuda', '-lc10_cuda', '-Wl,--as-needed');
  console.log(libs.join(' '));
} else if (what === 'defines')
  console.log(
    [
      abiDefine(),
      cuda ? 'SJD_CUDA=1' : 'SJD_CUDA=0',
      distributed(p.include[0]) ? 'SJD_DISTRIBUTED=1' : 'SJD_DISTRIBUTED=0',
      fusedAdamW(p.include[0]) ? 'SJD_FUSED_ADAMW=1' : 'SJD_FUSED_ADAMW=0',
    ].join(' '),
  );
else if (what === 'cxxflags') console.log(major > 2 || (major === 2 && minor >= 10) ? '-std=c++20' : '-std=c++17');
else {
  console.error('usage: find-libtorch.mjs include|libdir|libs|defines|cxxflags');
  process.exit(2);
}
