// What an image model is, apart from where it is read from (load.ts reads it from a folder; a
// browser from bytes, serving.ts): an SJD classifier or a pixel-space regressor with the image
// geometry its config carries, and the task shape that geometry gives. Reads no files.
import type { TrainConfig } from '../../train/config.js';
import type { LoadedModel, LoadedPixelModel } from '../../train/model-io.js';
import type { TaskShape } from '../../train/task.js';
import { type ImageGeometry, imageShape } from './tokens.js';

export type ImageModel = LoadedModel & { geometry: ImageGeometry };
export type PixelImageModel = LoadedPixelModel & { geometry: ImageGeometry };
/** An image model of any process; `diffusion` marks the pixel-space ones. */
export type AnyImageModel = ImageModel | PixelImageModel;

export const isPixelImageModel = (m: AnyImageModel): m is PixelImageModel => 'diffusion' in m;

/** The task shape of a saved image model (at `where`), from the geometry its config carries. */
export function savedImageShape(c: TrainConfig, where = 'the model'): TaskShape {
  if (!c.image) throw new Error(`${where}: not an image model (no image geometry in its config)`);
  return imageShape(c.image);
}
