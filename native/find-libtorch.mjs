// Locates libtorch for binding.gyp and says where it found it, in this order (as the Rust
// binding `tch` does, docs/design.md §3):
//   1. LIBTORCH=/path: a libtorch folder (include/, lib/; e.g. the `torch/` folder of a PyTorch
//      wheel, which brings CUDA on GPU machines);
//   2. LIBTORCH_USE_PYTORCH=1: asks Python (SJD_PYTHON, else `python3`) where its `torch` package
//      keeps its headers and libraries, and which C++ ABI it was built with (pip's torch, or
//      Debian's python3-torch);
//   3. the system's libtorch (Debian's libtorch-dev and the like): headers under /usr/include or
//      /usr/local/include, the library folder from the toolchain (`cc -print-multiarch`, then
//      lib64 and lib).
// The C++ standard follows the libtorch version (C++20 from 2.10 on, which newer ATen headers
// require; C++17 before), c10d/Gloo are compiled in only where their headers are
// (SJD_DISTRIBUTED=0 turns them off), and PyTorch's fused AdamW kernel is used on CUDA where the
// headers declare it (2.x; SJD_FUSED_ADAMW=0 turns it off). One source serves 1.13 and 2.x.
// Usage: node native/find-libtorch.mjs include|libdir|libs|defines|cxxflags|describe|json
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The one-line answer when no libtorch is found: the three ways to give one. */
export const NOT_FOUND =
  'libtorch not found: set LIBTORCH=/path/to/libtorch (a folder with include/ and lib/), or LIBTORCH_USE_PYTORCH=1 to use the torch package of python3 (SJD_PYTHON=/path/to/python to choose another), or install the system libtorch (Debian: apt-get install libtorch-dev)';

const hasAten = (include) => existsSync(join(include, 'ATen', 'ATen.h'));
const apiInclude = (include) => [include, join(include, 'torch/csrc/api/include')];

/** LIBTORCH=/path; the C++ ABI from TorchConfig.cmake (pre-2.7 wheels used the old one). */
function fromFolder(root) {
  const include = join(root, 'include');
  if (!hasAten(include)) throw new Error(`LIBTORCH=${root}: no include/ATen/ATen.h there`);
  const cfg = join(root, 'share/cmake/Torch/TorchConfig.cmake');
  const m = existsSync(cfg) && /_GLIBCXX_USE_CXX11_ABI=(\d)/.exec(readFileSync(cfg, 'utf8'));
  return {
    how: `LIBTORCH=${root}`,
    include: apiInclude(include),
    libdir: join(root, 'lib'),
    abi: m ? Number(m[1]) : 1,
  };
}

// What Python is asked: torch's include and library folders and its C++ ABI, as JSON.
const PYTHON_QUERY = `
import json, os, torch
root = os.path.dirname(torch.__file__)
print(json.dumps({"include": os.path.join(root, "include"), "libdir": os.path.join(root, "lib"),
                  "abi": int(torch._C._GLIBCXX_USE_CXX11_ABI), "version": torch.__version__}))
`;

/** LIBTORCH_USE_PYTORCH=1: the torch package of SJD_PYTHON (default python3). */
function fromPython(python) {
  let answer;
  try {
    const out = execFileSync(python, ['-c', PYTHON_QUERY], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    answer = JSON.parse(out.trim().split('\n').at(-1));
  } catch (e) {
    const why = (e.stderr ?? e.message ?? String(e)).toString().trim().split('\n').at(-1);
    throw new Error(`LIBTORCH_USE_PYTORCH=1: ${python} cannot import torch (${why})`);
  }
  if (!hasAten(answer.include)) {
    throw new Error(
      `LIBTORCH_USE_PYTORCH=1: ${python}'s torch ${answer.version} has no C++ headers (no ${join(answer.include, 'ATen/ATen.h')})`,
    );
  }
  return {
    how: `LIBTORCH_USE_PYTORCH=1 (torch ${answer.version} of ${python})`,
    include: apiInclude(answer.include),
    libdir: answer.libdir,
    abi: answer.abi,
  };
}

/** The toolchain's multiarch folder name (x86_64-linux-gnu, aarch64-linux-gnu, ...), or ''. */
export function multiarch() {
  try {
    return execFileSync(process.env.CC || 'cc', ['-print-multiarch'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
}

/** The system prefixes searched for libtorch, in order. */
export const SYSTEM_PREFIXES = ['/usr', '/usr/local'];

/** The system's libtorch: the first prefix whose include/ and library folder hold it, or null. */
export function fromSystem(prefixes = SYSTEM_PREFIXES) {
  const prefix = prefixes.find((p) => hasAten(join(p, 'include')));
  if (!prefix) return null;
  const ma = multiarch();
  const libdirs = [...(ma ? [`${prefix}/lib/${ma}`] : []), `${prefix}/lib64`, `${prefix}/lib`];
  const libdir = libdirs.find((d) => existsSync(join(d, 'libtorch.so')));
  if (!libdir) {
    throw new Error(`libtorch's headers are in ${prefix}/include but libtorch.so is in none of ${libdirs.join(', ')}`);
  }
  return { how: 'the system', include: apiInclude(join(prefix, 'include')), libdir, abi: 1 };
}

/** Where libtorch is: { how, include: [2 folders], libdir, abi }; throws NOT_FOUND when nowhere. */
export function findLibtorch(env = process.env, prefixes = SYSTEM_PREFIXES) {
  if (env.LIBTORCH) return fromFolder(env.LIBTORCH);
  if (env.LIBTORCH_USE_PYTORCH === '1') return fromPython(env.SJD_PYTHON || 'python3');
  const system = fromSystem(prefixes);
  if (!system) throw new Error(NOT_FOUND);
  return system;
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

/** Everything binding.gyp asks for, and what `describe` and `json` say. */
export function libtorchBuild() {
  const p = findLibtorch();
  const [major, minor] = torchVersion(p.include[0]);
  const cuda = existsSync(join(p.libdir, 'libtorch_cuda.so'));
  const libs = ['-ltorch', '-ltorch_cpu', '-lc10'];
  // --no-as-needed keeps libtorch_cuda linked so its CUDA kernels register at load.
  if (cuda) libs.unshift('-Wl,--no-as-needed', '-ltorch_cuda', '-lc10_cuda', '-Wl,--as-needed');
  const dist = distributed(p.include[0]);
  return {
    ...p,
    version: major > 0 ? `${major}.${minor}` : 'unknown',
    cuda,
    distributed: dist,
    libs,
    defines: [
      `_GLIBCXX_USE_CXX11_ABI=${p.abi}`,
      cuda ? 'SJD_CUDA=1' : 'SJD_CUDA=0',
      dist ? 'SJD_DISTRIBUTED=1' : 'SJD_DISTRIBUTED=0',
      fusedAdamW(p.include[0]) ? 'SJD_FUSED_ADAMW=1' : 'SJD_FUSED_ADAMW=0',
    ],
    cxxflags: major > 2 || (major === 2 && minor >= 10) ? '-std=c++20' : '-std=c++17',
  };
}

/** One line: which libtorch, found how, where. */
export const describeBuild = (b) =>
  `libtorch ${b.version} found by ${b.how}: headers ${b.include[0]}, libraries ${b.libdir}${b.cuda ? ', with CUDA' : ''}${b.distributed ? '' : ', without torch.distributed'}`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const what = process.argv[2];
  let b;
  try {
    b = libtorchBuild();
  } catch (e) {
    console.error(`sjd: ${e.message}`);
    process.exit(1);
  }
  const answers = {
    include: () => b.include.join(' '),
    libdir: () => b.libdir,
    libs: () => b.libs.join(' '),
    defines: () => b.defines.join(' '),
    cxxflags: () => b.cxxflags,
    describe: () => describeBuild(b),
    json: () => JSON.stringify(b),
  };
  if (!answers[what]) {
    console.error(`usage: find-libtorch.mjs ${Object.keys(answers).join('|')}`);
    process.exit(2);
  }
  console.log(answers[what]());
}
