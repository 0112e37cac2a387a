// Unconditional text sampling (app:text8): Alg. 2 on a cosine grid for the hybrid and blended
// processes, MDLM's ancestral sampler for the masked preset, in batches; tokens to strings.
import type { Denoiser } from '../../model/denoiser.js';
import type { SJDProcess } from '../../process/index.js';
import { type GridKind, modelDenoiser, sample, type TrajectoryStep } from '../../sample/index.js';
import { tidy } from '../../torch/index.js';
import { decode } from './corpus.js';

export interface TextSampleOptions {
  n: number;
  nfe: number;
  temperature?: number;
  topP?: number;
  seed: number;
  sampler?: string; // default: 'mdlm' for the masked preset, else 'sjd'
  grid?: GridKind;
  batch?: number;
  record?: boolean; // trajectory of the first batch
}

export function defaultTextSampler(proc: SJDProcess): string {
  return proc.config.kernel === 'mask' ? 'mdlm' : 'sjd';
}

export function sampleText(
  model: Denoiser,
  proc: SJDProcess,
  o: TextSampleOptions,
): { texts: string[]; trajectory?: TrajectoryStep[] } {
  const L = model.config.length;
  const size = o.batch ?? 64;
  const texts: string[] = [];
  let trajectory: TrajectoryStep[] | undefined;
  const anchors = tidy(() => model.anchors.forward().detach());
  for (let start = 0; start < o.n; start += size) {
    const B = Math.min(size, o.n - start);
    tidy(() => {
      const r = sample({
        process: proc,
        denoiser: modelDenoiser(model),
        anchors,
        batch: B,
        length: L,
        sampler: o.sampler ?? defaultTextSampler(proc),
        nfe: o.nfe,
        temperature: o.temperature ?? 1,
        topP: o.topP ?? 1,
        grid: o.grid ?? 'cosine',
        seed: o.seed + start,
        record: o.record === true && start === 0,
      });
      if (r.trajectory) trajectory = r.trajectory;
      const tokens = r.tokens.toArray(); // [B * L]
      for (let b = 0; b < B; b++) texts.push(decode(tokens.slice(b * L, (b + 1) * L)));
    });
  }
  anchors.dispose();
  return { texts, trajectory };
}
