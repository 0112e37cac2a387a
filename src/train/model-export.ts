// A run exported as a model folder (run-folder.ts has the layout): its EMA weights, float16 by
// default, its config with the precision it is to run at, and a manifest naming the run and its
// step; written atomically, never over a user's folder or the run itself.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Precision, withPrecision } from '../model/precision.js';
import { noGrad, saveSafetensors, type Tensor } from '../torch/index.js';
import { replaceDirAtomic, writeJsonAtomic } from '../util/atomic.js';
import { claimOutDir, within } from '../util/out-path.js';
import { sjdVersion } from './manifest.js';
import { loadNetwork, type ShapeOf } from './model-io.js';
import {
  finishedStep,
  isModelFolder,
  isRunFolder,
  MODEL_FILES,
  MODEL_FOLDER,
  RUN_FILES,
} from './run-folder.js';

/**
 * Writes a run's EMA weights (float16 by default) as a model folder: config.json,
 * model.safetensors and a manifest naming the run and its step. `force` replaces a folder that
 * is not sjd's own model folder; the run itself is never a target.
 */
export function exportModel(
  runDir: string,
  outDir: string,
  shape: ShapeOf,
  o: {
    dtype?: 'float16' | 'float32';
    precision?: Precision;
    force?: boolean;
    expectTask?: string;
  } = {},
): string {
  if (!existsSync(runDir)) throw new Error(`--run ${runDir}: no such folder`);
  if (!isRunFolder(runDir))
    throw new Error(
      isModelFolder(runDir)
        ? `--run ${runDir} is an exported model, not a run folder`
        : `--run ${runDir} is not a run folder (no ${RUN_FILES.config} and ${RUN_FILES.checkpoint}/)`,
    );
  if (within(outDir, runDir) || within(runDir, outDir))
    throw new Error(
      `--out ${outDir} would overwrite the run ${runDir}; choose a folder outside it`,
    );
  claimOutDir(outDir, MODEL_FOLDER, o.force === true, true);
  const dtype = o.dtype ?? 'float16';
  const { model, config } = loadNetwork(runDir, shape, o.expectTask);
  const weights: Record<string, Tensor> = noGrad(() =>
    Object.fromEntries(Object.entries(model.stateDict()).map(([k, t]) => [k, t.to(dtype)])),
  );
  replaceDirAtomic(outDir, (tmp) => {
    saveSafetensors(join(tmp, MODEL_FILES.weights), weights, { format: 'sjd-model', dtype });
    const saved = { ...config, model: withPrecision(config.model, o.precision) };
    writeJsonAtomic(join(tmp, MODEL_FILES.config), saved);
    writeJsonAtomic(join(tmp, MODEL_FILES.manifest), {
      sjd: sjdVersion(),
      run: runDir,
      step: finishedStep(runDir),
      dtype,
      written: new Date().toISOString(),
    });
  });
  return join(outDir, MODEL_FILES.weights);
}
