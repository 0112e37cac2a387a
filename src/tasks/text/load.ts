// The text model a command uses: --model DIR (a run folder or an exported model), else the model
// shipped in the package (models/text).
import { existsSync } from 'node:fs';
import type { Denoiser } from '../../model/denoiser.js';
import { type LoadedModel, loadTransformer } from '../../train/model-io.js';
import { textShape } from './task.js';

export const SHIPPED_TEXT = new URL('../../../../models/text', import.meta.url).pathname;

export function loadTextModel(dir?: string): LoadedModel & { model: Denoiser } {
  const path = dir ?? SHIPPED_TEXT;
  if (!dir && !existsSync(path))
    throw new Error(
      `no shipped text model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  return loadTransformer(path, textShape, 'text');
}
