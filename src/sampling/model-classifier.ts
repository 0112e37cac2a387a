// A trained network (transformer or U-Net) as the samplers' classifier: logits = model(y, t) with t [B] (one time
// broadcast over the batch, or one per row as training feeds it), evaluated without autograd.
import type { Network as Model } from '../model/network.js';
import { full, noGrad, tensor } from '../torch/index.js';
import type { Classifier } from './types.js';

export function modelClassifier(model: Model): Classifier {
  return (y, t, committed) =>
    noGrad(() => {
      const B = y.size(0);
      if (typeof t !== 'number' && t.length !== B)
        throw new Error(`per-row times must have one entry per row (${B}), got ${t.length}`);
      const times = typeof t === 'number' ? full([B], t) : tensor(t, [B], 'float64').to('float32'); // [B]
      return model.forward(y, times, committed);
    });
}
