// A trained image model (app:cifar10-imagenet): --model DIR (a run folder or an exported model
// folder whose config carries its image geometry), else the model shipped in the package
// (models/image), loaded with that geometry. The image commands load any process's
// (loadAnyImageModel: the SJD classifier, or the regressor of the pixel-space ddpm and bitdiff);
// `sjd serve` and the demo load SJD models (loadImageModel), whose steps the page shows.

import { join } from 'node:path';
import { defaultPrecisionSetting, type PrecisionSetting } from '../../model/auto-precision.js';
import { isPixelProcess } from '../../process/index.js';
import { MODEL_FILES, readConfig } from '../../train/index.js';
import { loadModel, loadPixelModel } from '../../train/model-io.js';
import { type AnyImageModel, type ImageModel, savedImageShape } from './image-model.js';
import { hasShippedImageModel, SHIPPED_IMAGE } from './presets.js';

export {
  type AnyImageModel,
  type ImageModel,
  isPixelImageModel,
  type PixelImageModel,
  savedImageShape,
} from './image-model.js';

function modelPath(dir?: string): string {
  const path = dir ?? SHIPPED_IMAGE;
  if (!dir && !hasShippedImageModel())
    throw new Error(
      `no shipped image model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  return path;
}

/** The process a saved model's config names ('' when it has no config: the loader says why). */
function savedProcess(path: string): string {
  try {
    return readConfig(join(path, MODEL_FILES.config)).process.name;
  } catch {
    return '';
  }
}

/**
 * An SJD image model (masked, hybrid, sjd): its classifier and process, at `precision`
 * (auto-precision.ts).
 */
export function loadImageModel(
  dir?: string,
  precision: PrecisionSetting = defaultPrecisionSetting(),
): ImageModel {
  const path = modelPath(dir);
  const r = loadModel(path, (c) => savedImageShape(c, path), 'image', { precision });
  return { ...r, geometry: r.config.image! };
}

/** An image model of any process, the pixel-space ddpm and bitdiff included. */
export function loadAnyImageModel(
  dir?: string,
  precision: PrecisionSetting = defaultPrecisionSetting(),
): AnyImageModel {
  const path = modelPath(dir);
  if (!isPixelProcess(savedProcess(path))) return loadImageModel(path, precision);
  const r = loadPixelModel(path, (c) => savedImageShape(c, path), 'image', precision);
  return { ...r, geometry: r.config.image! };
}
