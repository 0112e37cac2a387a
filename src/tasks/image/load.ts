// A trained image model (issue #14; app:cifar10-imagenet): a run folder or an exported model
// folder whose config carries its image geometry, loaded with that geometry (used by the image
// commands and by `sjd serve`, issue #15).
import { type LoadedModel, loadModel } from '../../train/model-io.js';
import { type ImageGeometry, imageShape } from './tokens.js';

export function loadImageModel(dir: string): LoadedModel & { geometry: ImageGeometry } {
  const r = loadModel(
    dir,
    (c) => {
      if (!c.image) throw new Error(`${dir}: not an image model (no image geometry in its config)`);
      return imageShape(c.image);
    },
    'image',
  );
  return { ...r, geometry: r.config.image! };
}
