// Builders: the denoiser and the SJD process of a config over a task's shape, the regressor of the
// pixel-space processes (ddpm, bitdiff: src/pixel/), and the AdamW parameter groups (nanoGPT's rule: maps with dim >= 2 are weight-decayed; biases, norms and the
// tables the model declares — anchors, positions, structure embeddings — are not).
import { Denoiser, type Network, UNetDenoiser } from '../model/network.js';
import { UNetRegressor } from '../model/unet-regressor.js';
import { type PixelDiffusion, pixelDiffusion } from '../pixel/index.js';
import {
  isPixelProcess,
  learnedHazardOf,
  type ProcessChoice,
  resolveProcess,
  type SJDProcess,
  valueAnchors,
} from '../process/index.js';
import type { Tensor, TorchGenerator } from '../torch/index.js';
import type { ModelChoice } from './config.js';
import type { TaskShape } from './task.js';

export function buildProcess(task: TaskShape, p: ProcessChoice): SJDProcess {
  return resolveProcess(p, task.blendShape ?? { length: task.length });
}

/**
 * The classifier of a config's model over the task; with the process choice `p`, a network that
 * learns its hazard weights (learned-bounded, learned-uniform-ce) carries them (learned-hazard.ts).
 */
export function buildModel(
  task: TaskShape,
  c: ModelChoice,
  gen: TorchGenerator,
  p?: ProcessChoice,
): Network {
  const learned = learnedHazardOf(p?.hazardWeights);
  if (c.arch === 'unet') {
    if (learned) throw new Error('learned hazard weights are for the transformer (text, Sudoku)');
    const grid = gridOf(task);
    const { arch: _, size: __, anchorDim, anchors, ...rest } = c;
    if (anchorDim === undefined || anchors === undefined)
      throw new Error('the U-Net classifier needs its anchors (model.anchorDim, model.anchors)');
    // value anchors E(0..K-1) (eq:embed-the-blur) unless the config learns its own
    const values = anchors === 'fixed' ? valueAnchors(task.classes, anchorDim / 2) : undefined;
    return new UNetDenoiser(
      { ...rest, anchorDim, anchors, ...grid, classes: task.classes },
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
    undefined,
    learned ?? undefined,
  );
}

function gridOf(task: TaskShape) {
  const grid = task.blendShape?.grid;
  if (!grid) throw new Error(`the U-Net needs an image task; ${task.name} has no pixel grid`);
  return grid;
}

/** The pixel-space process of a config (ddpm, bitdiff) over the task's K levels. */
export function buildPixelDiffusion(task: TaskShape, p: ProcessChoice): PixelDiffusion {
  if (!isPixelProcess(p.name)) throw new Error(`${p.name} is not a pixel-space process`);
  return pixelDiffusion(p.name, task.classes);
}

/** The U-Net regressor of a pixel-space process: D = the encoding's numbers a token in and out. */
export function buildRegressor(
  task: TaskShape,
  c: ModelChoice,
  d: PixelDiffusion,
  gen: TorchGenerator,
): UNetRegressor {
  if (c.arch !== 'unet') throw new Error(`the ${d.name} process trains the U-Net (arch unet)`);
  const { arch: _, size: __, anchorDim: ___, anchors: ____, ...rest } = c;
  return new UNetRegressor({ ...rest, ...gridOf(task), dim: d.encoding.dim }, gen);
}

/** [decayed, not decayed] parameters of a model. */
export function decayGroups(model: Network | UNetRegressor): [Tensor[], Tensor[]] {
  const tables = new Set(model.tables());
  const params = model.parameters();
  const decays = (p: Tensor) => p.ndim >= 2 && !tables.has(p);
  return [params.filter(decays), params.filter((p) => !decays(p))];
}
