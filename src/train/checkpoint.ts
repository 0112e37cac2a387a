// Checkpoints: a folder of safetensors files (weights, EMA, optimiser state, generator state)
// and a state.json, written to a temporary folder and renamed into place, so a stop at any
// moment leaves the previous checkpoint or the new one, never half of one.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSafetensors, saveSafetensors, type Tensor } from '../torch/index.js';

export interface Checkpoint {
  tensors: Record<string, Record<string, Tensor>>; // file stem -> named tensors
  state: Record<string, unknown>;
}

export function saveCheckpoint(dir: string, ck: Checkpoint): void {
  const tmp = `${dir}.tmp-${process.pid}`;
  const old = `${dir}.old`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  for (const [stem, ts] of Object.entries(ck.tensors))
    saveSafetensors(join(tmp, `${stem}.safetensors`), ts);
  writeFileSync(join(tmp, 'state.json'), `${JSON.stringify(ck.state, null, 2)}\n`);
  rmSync(old, { recursive: true, force: true });
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(tmp, dir);
  rmSync(old, { recursive: true, force: true });
}

/** The checkpoint in dir (or the previous one if a save was interrupted between renames). */
export function loadCheckpoint(dir: string, stems: string[]): Checkpoint {
  const where = existsSync(join(dir, 'state.json')) ? dir : `${dir}.old`;
  if (!existsSync(join(where, 'state.json'))) throw new Error(`no checkpoint in ${dir}`);
  const tensors: Checkpoint['tensors'] = {};
  for (const stem of stems)
    tensors[stem] = loadSafetensors(join(where, `${stem}.safetensors`)).tensors;
  let state: Record<string, unknown>;
  try {
    state = JSON.parse(readFileSync(join(where, 'state.json'), 'utf8'));
  } catch {
    throw new Error(`${join(where, 'state.json')}: not valid JSON`);
  }
  return { tensors, state };
}
