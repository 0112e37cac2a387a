// A trained Denoiser as the samplers' classifier: logits = model(y, t) with t broadcast over
// the batch, evaluated without autograd.
import type { Denoiser as Model } from '../model/denoiser.js';
import { full, noGrad } from '../torch/index.js';
import type { Denoiser } from './types.js';

export function modelDenoiser(model: Model): Denoiser {
  return (y, t, committed) => noGrad(() => model.forward(y, full([y.size(0)], t), committed));
}
