// The compute precision a model samples at when the user leaves it to the machine ('auto', the
// default of every command that samples, solves, evaluates or serves): bfloat16 products
// (precision.ts) where the hardware multiplies bfloat16 natively, the CPU's AVX-512 BF16 or AMX
// (runtime-info.ts) or a CUDA GPU of compute capability 8.0 or later, since there it is faster at
// the same quality (docs/benchmarks.md, docs/reports/precision.md); float32 elsewhere, where
// bfloat16 is emulated and slower, and on the TypeScript backend, which computes in float32
// whatever it is asked. SJD_PRECISION sets the default setting of the commands and the library
// loaders (the test suite pins float32 so that its results do not depend on the machine).
import { defaultDevice, torchVersion } from '../torch/index.js';
import { type CpuInfo, cpuInfo } from '../torch/runtime-info.js';
import { PRECISIONS, type Precision } from './precision.js';

/** What a user may ask for: a precision, or 'auto' (the machine's choice). */
export type PrecisionSetting = Precision | 'auto';
export const PRECISION_SETTINGS: readonly PrecisionSetting[] = ['auto', ...PRECISIONS];

/** The environment variable holding the default setting. */
export const PRECISION_ENV = 'SJD_PRECISION';

/**
 * Tasks whose models 'auto' keeps at float32 whatever the hardware, with the reason: those where
 * bfloat16 sampling measured outside float32's seed spread, or is not measured yet
 * (docs/reports/precision.md). None: Sudoku's solve rates, text's words and images' FD are all
 * within it. A task of the user's own is not here: auto's rule applies to it.
 */
export const AUTO_KEEPS_FLOAT32: Readonly<Record<string, string>> = {};

/**
 * The tasks that `sjd train` at auto (its default) keeps at float32, with the reason: those whose
 * held-out curves in bfloat16 left float32's seed spread, or are not measured yet
 * (docs/reports/precision.md, training). None: Sudoku's, text's and images' curves agree. A task
 * of the user's own is not here.
 */
export const AUTO_TRAINING_KEEPS_FLOAT32: Readonly<Record<string, string>> = {};

/** A setting resolved: the precision used, what was asked, and why, in a few words. */
export interface ResolvedPrecision {
  precision: Precision;
  setting: PrecisionSetting;
  why: string;
}

/** The default setting: SJD_PRECISION where set (checked, naming it), else 'auto'. */
export function defaultPrecisionSetting(): PrecisionSetting {
  const v = process.env[PRECISION_ENV];
  if (v === undefined || v === '') return 'auto';
  if (!(PRECISION_SETTINGS as readonly string[]).includes(v))
    throw new Error(`${PRECISION_ENV} '${v}' is invalid: use ${PRECISION_SETTINGS.join(', ')}`);
  return v as PrecisionSetting;
}

/** Whether the hardware multiplies bfloat16 natively, and why; `js`: the TypeScript backend. */
export interface Bfloat16Support {
  yes: boolean;
  why: string;
  js?: boolean;
}

/** Whether `device` (cpu, cuda, cuda:N) multiplies bfloat16 in hardware, with the reason. */
export function nativeBfloat16(
  device: string = defaultDevice(),
  cpu: () => CpuInfo = cpuInfo,
): Bfloat16Support {
  const v = torchVersion();
  if (v.torch === 'none')
    return { yes: false, js: true, why: 'the TypeScript backend computes in float32' };
  if (device.startsWith('cuda'))
    return v.cudaBf16
      ? { yes: true, why: 'the GPU has bfloat16' }
      : { yes: false, why: 'the GPU has no bfloat16 (compute capability below 8.0)' };
  return cpu().bf16
    ? { yes: true, why: 'the CPU has AVX-512 BF16' }
    : { yes: false, why: 'the CPU has no AVX-512 BF16 or AMX' };
}

/**
 * The precision `setting` means on hardware `hw` for a model of `task`: auto as the header says;
 * a precision asked for is used as asked (bfloat16 without hardware support is emulated, slower:
 * the reason says so), except on the TypeScript backend, which computes in float32.
 */
export function resolvePrecision(
  setting: PrecisionSetting = defaultPrecisionSetting(),
  task?: string,
  hw: Bfloat16Support = nativeBfloat16(),
  keeps: Readonly<Record<string, string>> = AUTO_KEEPS_FLOAT32,
): ResolvedPrecision {
  if (setting !== 'auto') {
    if (setting === 'bfloat16' && !hw.yes)
      return hw.js
        ? { precision: 'float32', setting, why: hw.why }
        : { precision: setting, setting, why: `asked; emulated, slower: ${hw.why}` };
    return { precision: setting, setting, why: 'asked' };
  }
  const kept = task === undefined ? undefined : keeps[task];
  if (kept !== undefined && hw.yes) return { precision: 'float32', setting, why: kept };
  return { precision: hw.yes ? 'bfloat16' : 'float32', setting, why: `auto: ${hw.why}` };
}

/** One phrase for a report's first line: 'bfloat16 (auto: the CPU has AVX-512 BF16)'. */
export const describePrecision = (r: ResolvedPrecision): string => `${r.precision} (${r.why})`;
