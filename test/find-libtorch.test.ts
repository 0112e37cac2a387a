// How the build finds libtorch (as the Rust binding tch does), in its order: LIBTORCH=/path with
// include/ and lib/ (CUDA libraries linked when present, the C++ ABI read from
// TorchConfig.cmake); LIBTORCH_USE_PYTORCH=1, asking Python's torch package (Debian's
// python3-torch here; the package-install test builds the addon this way); the system's, with the
// library folder from the toolchain's multiarch name, then lib64 and lib; one line naming the
// three ways when none is found; a clear error for a folder that is not libtorch.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './tmp.js';

const script = new URL('../../native/find-libtorch.mjs', import.meta.url).pathname;
const run = (what: string, libtorch?: string, more: Record<string, string> = {}) => {
  const env = { ...process.env, ...more };
  if (libtorch === undefined) delete env.LIBTORCH;
  else env.LIBTORCH = libtorch;
  return spawnSync(process.execPath, [script, what], { encoding: 'utf8', env });
};
const finder = async () =>
  (await import(script)) as {
    findLibtorch(env: Record<string, string>, prefixes?: string[]): { how: string; libdir: string };
    multiarch(): string;
    NOT_FOUND: string;
  };

test('the system libtorch by default: Debian paths', () => {
  assert.equal(
    run('describe').stdout.trim(),
    'libtorch 1.13 found by the system: headers /usr/include, libraries /usr/lib/x86_64-linux-gnu',
  );
  assert.equal(run('include').stdout.trim(), '/usr/include /usr/include/torch/csrc/api/include');
  assert.equal(run('libdir').stdout.trim(), '/usr/lib/x86_64-linux-gnu');
  assert.equal(run('libs').stdout.trim(), '-ltorch -ltorch_cpu -lc10');
  assert.equal(
    run('defines').stdout.trim(),
    '_GLIBCXX_USE_CXX11_ABI=1 SJD_CUDA=0 SJD_DISTRIBUTED=1 SJD_FUSED_ADAMW=0',
  );
  assert.equal(run('cxxflags').stdout.trim(), '-std=c++17', "Debian's 1.13 builds as C++17");
});

test('LIBTORCH=/path: a wheel-style folder with CUDA and the old C++ ABI', () => {
  const root = tempDir('libtorch-');
  mkdirSync(join(root, 'include/ATen'), { recursive: true });
  mkdirSync(join(root, 'lib'));
  mkdirSync(join(root, 'share/cmake/Torch'), { recursive: true });
  writeFileSync(join(root, 'include/ATen/ATen.h'), '');
  writeFileSync(join(root, 'lib/libtorch_cuda.so'), '');
  writeFileSync(
    join(root, 'share/cmake/Torch/TorchConfig.cmake'),
    'set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=0")',
  );
  assert.equal(
    run('include', root).stdout.trim(),
    `${root}/include ${root}/include/torch/csrc/api/include`,
  );
  assert.equal(run('libdir', root).stdout.trim(), `${root}/lib`);
  assert.match(
    run('libs', root).stdout,
    /-Wl,--no-as-needed -ltorch_cuda -lc10_cuda -Wl,--as-needed -ltorch/,
  );
  assert.equal(
    run('defines', root).stdout.trim(),
    '_GLIBCXX_USE_CXX11_ABI=0 SJD_CUDA=1 SJD_DISTRIBUTED=0 SJD_FUSED_ADAMW=0',
    'no c10d/Gloo headers: distributed left out',
  );
  assert.equal(run('cxxflags', root).stdout.trim(), '-std=c++17', 'no version.h: C++17');
});

test('LIBTORCH=/path of PyTorch 2.11 with c10d, Gloo and fused AdamW: C++20, both compiled in (unless turned off)', () => {
  const root = tempDir('libtorch211-');
  const inc = join(root, 'include');
  for (const d of [
    'ATen/ops',
    'gloo',
    'torch/csrc/distributed/c10d',
    'torch/csrc/api/include/torch',
  ])
    mkdirSync(join(inc, d), { recursive: true });
  mkdirSync(join(root, 'lib'));
  for (const f of [
    'ATen/ATen.h',
    'ATen/ops/_fused_adamw.h',
    'gloo/algorithm.h',
    'torch/csrc/distributed/c10d/ProcessGroupGloo.hpp',
  ])
    writeFileSync(join(inc, f), '');
  writeFileSync(
    join(inc, 'torch/csrc/api/include/torch/version.h'),
    '#define TORCH_VERSION_MAJOR 2\n#define TORCH_VERSION_MINOR 11\n#define TORCH_VERSION_PATCH 0\n',
  );
  assert.equal(run('cxxflags', root).stdout.trim(), '-std=c++20');
  assert.match(run('defines', root).stdout, /SJD_CUDA=0 SJD_DISTRIBUTED=1 SJD_FUSED_ADAMW=1$/m);
  const off = spawnSync(process.execPath, [script, 'defines'], {
    encoding: 'utf8',
    env: { ...process.env, LIBTORCH: root, SJD_DISTRIBUTED: '0', SJD_FUSED_ADAMW: '0' },
  });
  assert.match(off.stdout, /SJD_DISTRIBUTED=0 SJD_FUSED_ADAMW=0$/m);
});

test('LIBTORCH naming a folder without libtorch is refused with a clear message', () => {
  const r = run('include', tempDir('empty-'));
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /no include\/ATen\/ATen.h there/);
});

test("LIBTORCH_USE_PYTORCH=1: Debian's python3-torch gives its include and lib folders", () => {
  const py = { LIBTORCH_USE_PYTORCH: '1', SJD_PYTHON: '/usr/bin/python3' };
  const torchDir = '/usr/lib/python3/dist-packages/torch';
  assert.equal(
    run('include', undefined, py).stdout.trim(),
    `${torchDir}/include ${torchDir}/include/torch/csrc/api/include`,
  );
  assert.equal(run('libdir', undefined, py).stdout.trim(), `${torchDir}/lib`);
  assert.match(
    run('describe', undefined, py).stdout,
    /^libtorch 1\.13 found by LIBTORCH_USE_PYTORCH=1 \(torch 1\.13\S* of \/usr\/bin\/python3\)/,
  );
  // Debian's torch/include has no Gloo headers: torch.distributed is left out, as said
  assert.match(
    run('defines', undefined, py).stdout,
    /_GLIBCXX_USE_CXX11_ABI=1 .*SJD_DISTRIBUTED=0/,
  );
  const none = run('include', undefined, { ...py, SJD_PYTHON: '/bin/false' });
  assert.equal(none.status, 1);
  assert.match(none.stderr, /^sjd: LIBTORCH_USE_PYTORCH=1: \/bin\/false cannot import torch/);
});

test("the system's libtorch: the toolchain's multiarch folder, then lib64, then lib", async () => {
  const { findLibtorch, multiarch } = await finder();
  const ma = multiarch();
  assert.equal(ma, spawnSync('cc', ['-print-multiarch'], { encoding: 'utf8' }).stdout.trim());
  for (const lib of [`lib/${ma}`, 'lib64', 'lib']) {
    const prefix = tempDir('prefix-');
    mkdirSync(join(prefix, 'include/ATen'), { recursive: true });
    writeFileSync(join(prefix, 'include/ATen/ATen.h'), '');
    mkdirSync(join(prefix, lib), { recursive: true });
    writeFileSync(join(prefix, lib, 'libtorch.so'), '');
    const found = findLibtorch({}, [prefix]);
    assert.deepEqual([found.how, found.libdir], ['the system', join(prefix, lib)]);
  }
});

test('no libtorch anywhere: one line naming the three ways', async () => {
  const { findLibtorch, NOT_FOUND } = await finder();
  assert.throws(() => findLibtorch({}, [tempDir('bare-')]), { message: NOT_FOUND });
  assert.match(NOT_FOUND, /LIBTORCH=.*LIBTORCH_USE_PYTORCH=1.*libtorch-dev/);
  assert.doesNotMatch(NOT_FOUND, /\n/);
});
