// Serving the image task (common/task-spec.ts TaskServing): its models' shape (from the geometry
// their config carries), the sampling defaults (app:cifar10-imagenet: MDLM's ancestral step for
// the masked preset, else Alg. 2; NFE 64), a model from its files' bytes, and sampling as the API
// answers it (grey levels [n][C * H * W]). Reads no files: a browser bundle holds it.
import { type LoadedModel, modelFromFiles } from '../../train/model-io.js';
import type { TaskServing } from '../common/task-spec.js';
import { savedImageShape } from './image-model.js';
import { IMAGE_SAMPLING, sampleImageSteps } from './sample.js';
import type { ImageGeometry } from './tokens.js';

export const imageServing: TaskServing<LoadedModel & { geometry: ImageGeometry }> = {
  name: 'image',
  shape: (config) => savedImageShape(config),
  sampling: IMAGE_SAMPLING,
  fromFiles: (configText, weights, source) => {
    const shape = (c: Parameters<typeof savedImageShape>[0]) => savedImageShape(c, source);
    const r = modelFromFiles(configText, weights, shape, source, 'image');
    return { ...r, geometry: r.config.image! };
  },
  *sampleSteps(m, s) {
    const g = m.geometry;
    const r = yield* sampleImageSteps(m.model, m.process, g, s);
    const size = g.channels * g.height * g.width;
    const images = Array.from({ length: s.n }, (_, i) =>
      Array.from(r.images.subarray(i * size, (i + 1) * size)),
    ); // [n][C * H * W] grey levels
    return { answer: { geometry: g, images }, nfe: r.nfe };
  },
};
