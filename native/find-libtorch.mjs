// Locates libtorch for binding.gyp, the way the Rust binding `tch` does (DESIGN.md §3):
// `LIBTORCH=/path` names a libtorch folder (include/, lib/; e.g. the `torch/` folder of a
// PyTorch wheel, which brings CUDA on GPU machines); otherwise Debian's `libtorch-dev` paths.
// Usage: node native/find-libtorch.mjs include|libdir|libs|defines
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

const p = paths();
const cuda = existsSync(join(p.libdir, 'libtorch_cuda.so'));
const what = process.argv[2];
if (what === 'include') console.log(p.include.join(' '));
else if (what === 'libdir') console.log(p.libdir);
else if (what === 'libs') {
  const libs = ['-ltorch', '-ltorch_cpu', '-lc10'];
  // --no-as-needed keeps libtorch_cuda linked so its CUDA kernels register at load.
  if (cuda) libs.unshift('-Wl,--no-as-needed', '-ltorch_cuda', '-lc10_cuda', '-Wl,--as-needed');
  console.log(libs.join(' '));
} else if (what === 'defines') console.log([abiDefine(), cuda ? 'SJD_CUDA=1' : 'SJD_CUDA=0'].join(' '));
else {
  console.error('usage: find-libtorch.mjs include|libdir|libs|defines');
  process.exit(2);
}
