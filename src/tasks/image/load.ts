// A trained image model (issue #14; app:cifar10-imagenet): --model DIR (a run folder or an
// exported model folder whose config carries its image geometry), else the model shipped in the
// package (models/image), loaded with that geometry (used by the image commands and by
// `sjd serve`, issue #15).
import type { TaskShape, TrainConfig } from '../../train/index.js';
import { type LoadedModel, loadModel } from '../../train/model-io.js';
import { hasShippedImageModel, SHIPPED_IMAGE } from './presets.js';
import { type ImageGeometry, imageShape } from './tokens.js';

export function loadImageModel(dir?: string): LoadedModel & { geometry: ImageGeometry } {
  const path = dir ?? SHIPPED_IMAGE;
  if (!dir && !hasShippedImageModel())
    throw new Error(
      `no shipped image model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  const r = loadModel(path, (c) => savedImageShape(c, path), 'image');
  return { ...r, geometry: r.config.image! };
}

/** The task shape of a saved image model (at `where`), from the geometry its config carries. */
export function savedImageShape(c: TrainConfig, where = 'the model'): TaskShape {
  if (!c.image) throw new Error(`${where}: not an image model (no image geometry in its config)`);
  return imageShape(c.image);
}
