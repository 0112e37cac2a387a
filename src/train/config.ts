// A run's resolved configuration (config.json; docs/design.md §4): the process choice, the model,
// the optimiser and the loop's periods. Read from disk through a schema (zod) with bounds
// (config-schema.ts), so a hand-edited or corrupt file gets a one-line error naming its field
// instead of a hang or a libtorch message; old files are migrated on read (the names of the
// earlier vocabulary: model.name -> model.size, process.kernel -> process.blend, gaussian1d ->
// gauss1d, process.preset -> process.name, and the image blur's process.sigmaW -> process.sigmaB).
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import type { DenoiserConfig } from '../model/denoiser.js';
import type { UNetConfig } from '../model/unet.js';
import { isPixelProcess, type ProcessChoice, type TimeSampling } from '../process/index.js';
import { configSchema, modelSchema } from './config-schema.js';
import type { LrSchedule } from './schedule.js';

/** The transformer (denoiser.ts) of sequences and boards. */
export type TransformerChoice = Omit<DenoiserConfig, 'length' | 'classes' | 'structure'> & {
  arch?: 'transformer'; // absent in configs written before the U-Net
  size: string; // tiny | cpu | paper, or a name of the user's
  structure: boolean; // the task's structure embeddings (Sudoku: row, column, box)
};

/**
 * The U-Net (unet.ts) of images; the grid and the levels come from the task. The pixel-space
 * processes (ddpm, bitdiff) train the same layers as a regressor without anchors
 * (unet-regressor.ts): their configs have no anchorDim and anchors.
 */
export type UNetChoice = Omit<
  UNetConfig,
  'height' | 'width' | 'channels' | 'classes' | 'anchorDim' | 'anchors'
> &
  Partial<Pick<UNetConfig, 'anchorDim' | 'anchors'>> & {
    arch: 'unet';
    size: string;
  };

export type ModelChoice = TransformerChoice | UNetChoice;

/** A config whose network is the transformer (Sudoku, text). */
export type TransformerConfig = TrainConfig & { model: TransformerChoice };

export interface TrainConfig {
  task: string;
  seed: number;
  process: ProcessChoice;
  model: ModelChoice;
  batch: number;
  steps: number;
  lr: LrSchedule;
  weightDecay: number;
  clip: number;
  ema: number;
  timeSampling: TimeSampling;
  logEvery: number;
  evalEvery: number;
  checkpointEvery: number;
  length?: number; // text: the sequence length
  data?: string; // the training data (text: the corpus folder; Sudoku, images: --data), absolute
  dataAs?: string; // the training data as the user spelled it, where data was made absolute
  holdOut?: string; // the share of --data held out for evaluation (tasks/common/hold-out.ts), as spelled
  /** the evaluation flags the run was started with (cli/resume.ts), kept on resume */
  evaluation?: Record<string, string | number>;
  augment?: 'none' | 'digits' | 'full'; // Sudoku: the symmetries drawn per training board
  deepSupervision?: boolean; // a looped transformer's cross-entropy at every loop, averaged
  image?: { height: number; width: number; channels: number; levels: number }; // images
  alphabet?: { symbols: string[]; pad: boolean }; // sequences, text: one token a symbol, then PAD
  /** text on a token corpus: its tokenizer (a tokenizer.json's text kept whole, so the run decodes) */
  tokenizer?: { spec: string; name: string; vocab: number; json?: string };
  shards?: number; // data-parallel: the global batch in this many parts (data-parallel.ts)
  /** warm start: the weights of a run (its EMA) or model folder, and their sha256 */
  init?: { from: string; sha256?: string };
}

/** `from` renamed `to` in an object of a config, its value mapped; both there: kept for the schema. */
function rename(
  o: Record<string, unknown> | undefined,
  from: string,
  to: string,
  value = (v: unknown) => v,
): void {
  if (!o || typeof o !== 'object' || !(from in o) || o[to] !== undefined) return;
  o[to] = value(o[from]);
  delete o[from];
}

/** Renames of the earlier vocabulary, applied to a parsed config.json before validation. */
function migrate(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const c = structuredClone(raw) as Record<string, Record<string, unknown> | undefined>;
  rename(c.model, 'name', 'size');
  const p = c.process;
  rename(p, 'kernel', 'blend', (k) => (k === 'gaussian1d' ? 'gauss1d' : k));
  rename(p, 'preset', 'name');
  if (p?.blend === 'blur2d') rename(p, 'sigmaW', 'sigmaB'); // the image blur B's is sigma_B
  return c;
}

/**
 * The network's anchors against the process: the SJD processes need them, the pixel-space ones
 * (a regressor of values or bits) have none. Null when they fit.
 */
function anchorMisfit(process: string, m: { anchorDim?: number; anchors?: string }): string | null {
  const has = m.anchorDim !== undefined || m.anchors !== undefined;
  const needs = !isPixelProcess(process);
  if (has && !needs)
    return `the ${process} process's network has no anchors (no anchorDim, anchors)`;
  if (!(m.anchorDim !== undefined && m.anchors !== undefined) && needs)
    return `the ${process} process needs the network's anchors (anchorDim and anchors)`;
  return null;
}

/** Validates a config (e.g. parsed from disk); `where` names it in the one-line error. */
export function parseConfig(raw: unknown, where: string): TrainConfig {
  const fail = (issue: z.core.$ZodIssue, prefix: PropertyKey[] = []) => {
    const field = [...prefix, ...issue.path].join('.') || 'the config';
    return new Error(`${where}: ${field}: ${issue.message}`);
  };
  const r = configSchema.safeParse(migrate(raw));
  if (!r.success) throw fail(r.error.issues[0]!);
  const m = modelSchema(r.data.model).safeParse(r.data.model);
  if (!m.success) throw fail(m.error.issues[0]!, ['model']);
  const misfit = anchorMisfit(r.data.process.name, m.data);
  if (misfit) throw new Error(`${where}: model.anchors: ${misfit}`);
  if (r.data.deepSupervision) {
    const loops = 'loops' in m.data ? (m.data.loops ?? 1) : 0;
    if (loops < 2)
      throw new Error(
        `${where}: deepSupervision: needs a transformer that loops its blocks (model.loops >= 2)`,
      );
    if (r.data.process.objective === 'elbo')
      throw new Error(`${where}: deepSupervision: trains by cross-entropy, not the ELBO objective`);
  }
  return { ...r.data, model: m.data } as TrainConfig;
}

/** Reads and validates a config.json. */
export function readConfig(path: string): TrainConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new Error(`${path}: cannot be read`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error(`${path}: not valid JSON`);
  }
  return parseConfig(raw, path);
}
