// The text model a command uses: --model DIR (a run folder or an exported model), else the model
// shipped in the package (models/text); with its hazard weights (learned ones deployed) or w = 1.
import { existsSync } from 'node:fs';
import { defaultPrecisionSetting } from '../../model/auto-precision.js';
import type { Denoiser } from '../../model/denoiser.js';
import { type LoadedModel, type LoadOptions, loadTransformer } from '../../train/model-io.js';
import { textShape } from './task.js';

export const SHIPPED_TEXT = new URL('../../../../models/text', import.meta.url).pathname;

/**
 * `o.uniformHazard`: sample with w = 1 whatever hazard weights the model has (model-io.ts);
 * `o.precision`: the compute precision (auto-precision.ts; default SJD_PRECISION, else auto).
 */
export function loadTextModel(
  dir?: string,
  o: LoadOptions = {},
): LoadedModel & { model: Denoiser } {
  const path = dir ?? SHIPPED_TEXT;
  if (!dir && !existsSync(path))
    throw new Error(
      `no shipped text model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  return loadTransformer(path, textShape, 'text', {
    uniformHazard: o.uniformHazard === true,
    precision: o.precision ?? defaultPrecisionSetting(),
  });
}
