// Checkpoints: a folder of safetensors files (weights, EMA, optimiser state, generator state)
// and a state.json, built beside the run's checkpoint/ and renamed into place
// (util/atomic.ts), so a stop at any moment leaves the previous checkpoint or the new one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSafetensors, saveSafetensors, type Tensor } from '../torch/index.js';
import { replaceDirAtomic, writeJsonAtomic } from '../util/atomic.js';
import { checkpointDir, RUN_FILES } from './run-folder.js';

export interface Checkpoint {
  tensors: Record<string, Record<string, Tensor>>; // file stem -> named tensors
  state: Record<string, unknown>;
}

export function saveCheckpoint(run: string, ck: Checkpoint): void {
  replaceDirAtomic(join(run, RUN_FILES.checkpoint), (tmp) => {
    for (const [stem, ts] of Object.entries(ck.tensors))
      saveSafetensors(join(tmp, `${stem}.safetensors`), ts);
    writeJsonAtomic(join(tmp, RUN_FILES.state), ck.state);
  });
}

/** The checkpoint of a run (or the one set aside if a save was stopped between renames). */
export function loadCheckpoint(run: string, stems: string[]): Checkpoint {
  const where = checkpointDir(run);
  if (where === null) throw new Error(`no checkpoint in ${run}`);
  const tensors: Checkpoint['tensors'] = {};
  for (const stem of stems)
    tensors[stem] = loadSafetensors(join(where, `${stem}.safetensors`)).tensors;
  let state: Record<string, unknown>;
  try {
    state = JSON.parse(readFileSync(join(where, RUN_FILES.state), 'utf8'));
  } catch {
    throw new Error(`${join(where, RUN_FILES.state)}: not valid JSON`);
  }
  return { tensors, state };
}
