// A trained image model (issue #14; app:cifar10-imagenet): --model DIR (a run folder or an
// exported model folder whose config carries its image geometry), else the model shipped in the
// package (models/image), loaded with that geometry (used by the image commands and by
// `sjd serve`, issue #15).
import { type LoadedModel, loadModel } from '../../train/model-io.js';
import { hasShippedImageModel, SHIPPED_IMAGE } from './presets.js';
import { type ImageGeometry, imageShape } from './tokens.js';

export function loadImageModel(dir?: string): LoadedModel & { geometry: ImageGeometry } {
  const path = dir ?? SHIPPED_IMAGE;
  if (!dir && !hasShippedImageModel())
    throw new Error(
      `no shipped image model in ${path}; pass --model DIR (a run folder or an exported model)`,
    );
  const r = loadModel(
    path,
    (c) => {
      if (!c.image)
        throw new Error(`${path}: not an image model (no image geometry in its config)`);
      return imageShape(c.image);
    },
    'image',
  );
  return { ...r, geometry: r.config.image! };
}
