// Builders: the denoiser and the SJD process of a config over a task's shape, and the AdamW
// parameter groups (nanoGPT's rule: maps with dim >= 2 are weight-decayed; biases, norms and the
// tables the model declares — anchors, positions, structure embeddings — are not).
import { Denoiser, type Network, UNetDenoiser } from '../model/network.js';
import {
  type ProcessChoice,
  resolveProcess,
  type SJDProcess,
  valueAnchors,
} from '../process/index.js';
import type { Generator, Tensor } from '../torch/index.js';
import type { ModelChoice } from './config.js';
import type { TaskShape } from './task.js';

export function buildProcess(task: TaskShape, p: ProcessChoice): SJDProcess {
  return resolveProcess(p, task.blendShape ?? { length: task.length });
}

export function buildModel(task: TaskShape, c: ModelChoice, gen: Generator): Network {
  if (c.arch === 'unet') {
    const grid = task.blendShape?.grid;
    if (!grid) throw new Error(`the U-Net needs an image task; ${task.name} has no pixel grid`);
    const { arch: _, size: __, ...rest } = c;
    // value anchors E(0..K-1) (eq:embed-the-blur) unless the config learns its own
    const values = c.anchors === 'fixed' ? valueAnchors(task.classes, c.anchorDim / 2) : undefined;
    return new UNetDenoiser(
      { ...rest, ...grid, classes: task.classes },
      gen,
      values?.to('float32'),
    );
  }
  const { size: _, arch: __, structure, ...rest } = c;
  return new Denoiser(
    {
      ...rest,
      length: task.length,
      classes: task.classes,
      structure: structure ? task.structure : undefined,
    },
    gen,
  );
}

/** [decayed, not decayed] parameters of a model. */
export function decayGroups(model: Network): [Tensor[], Tensor[]] {
  const tables = new Set(model.tables());
  const params = model.parameters();
  const decays = (p: Tensor) => p.ndim >= 2 && !tables.has(p);
  return [params.filter(decays), params.filter((p) => !decays(p))];
}
