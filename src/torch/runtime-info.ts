// What this process runs on, for `sjd info` and for speed figures that name their machine: which
// libtorch the addon was built against and how the build found it (build/libtorch.json, written
// by native/build.mjs), the libtorch and BLAS libraries the dynamic loader actually mapped
// (/proc/self/maps: Debian's libtorch calls libblas.so.3, which the alternatives system points at
// OpenBLAS or the reference BLAS), and the CPU's model and the vector extensions that decide
// libtorch's kernels (AVX2, AVX-512, bf16).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../util/package-root.js';

/** What native/build.mjs recorded of the libtorch it built against (null: a prebuilt addon). */
export interface AddonBuild {
  how: string; // 'the system', 'LIBTORCH=/path', 'LIBTORCH_USE_PYTORCH=1 (torch V of PYTHON)'
  include: string[];
  libdir: string;
  version: string;
  cuda: boolean;
  distributed: boolean;
}

export function addonBuild(root = PACKAGE_ROOT): AddonBuild | null {
  const file = join(root, 'build/libtorch.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as AddonBuild) : null;
}

/** The shared libraries mapped into this process whose file name matches `pattern`. */
export function mappedLibraries(pattern: RegExp): string[] {
  if (!existsSync('/proc/self/maps')) return [];
  const found = new Set<string>();
  for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
    const path = line.slice(line.indexOf('/'));
    if (line.includes('/') && pattern.test(path.slice(path.lastIndexOf('/') + 1))) found.add(path);
  }
  return [...found];
}

/** The libtorch and BLAS libraries mapped now (after the addon loaded). */
export function loadedLibraries(): { libtorch: string[]; blas: string[] } {
  return {
    libtorch: mappedLibraries(/^libtorch_cpu\.so/),
    blas: mappedLibraries(/^lib(open)?blas.*\.so|^libmkl_rt|^libblis|^libflexiblas/),
  };
}

export interface CpuInfo {
  model: string;
  cores: number;
  /** the vector extensions libtorch's CPU kernels choose by */
  avx2: boolean;
  avx512: boolean;
  /** AVX-512 BF16 or AMX-BF16: bfloat16 matrix products in hardware */
  bf16: boolean;
}

/** The CPU's model and vector extensions (Linux /proc/cpuinfo; 'unknown' elsewhere). */
export function cpuInfo(
  text = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '',
): CpuInfo {
  const field = (name: string) =>
    new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
  const flags = new Set(field('flags').split(/\s+/));
  return {
    model: field('model name') || field('cpu model') || field('cpu') || 'unknown',
    cores: (text.match(/^processor\s*:/gm) ?? []).length,
    avx2: flags.has('avx2'),
    avx512: flags.has('avx512f'),
    bf16: flags.has('avx512_bf16') || flags.has('amx_bf16'),
  };
}

/** One line: the CPU model and its extensions, as speed figures name their machine. */
export function describeCpu(c: CpuInfo = cpuInfo()): string {
  const ext = [c.avx2 && 'AVX2', c.avx512 && 'AVX-512', c.bf16 && 'bf16'].filter(Boolean);
  return `${c.model} (${c.cores} cores${ext.length > 0 ? `; ${ext.join(', ')}` : ''})`;
}
