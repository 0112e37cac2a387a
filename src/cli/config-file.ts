// `sjd train TASK --config FILE`: a new run's settings from a JSON file in config.json's shape
// (what `--print-config` prints, or any part of it). A setting that a flag also makes (FLAG_PATHS:
// the size, the process, the seed, the steps, the learning rate...) is taken as that flag's value,
// checked by the flag's own parser, unless the flag is given on the command line, which overrides
// the file; the rest (the network's width, depth and heads, the process's own fields) is laid
// over the config the flags build. The result is checked as a run's config.json is
// (train/config.ts parseConfig), and a setting the schema does not know is refused by its path.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { train as T, util } from '../index.js';

type Json = Record<string, unknown>;

/** The config fields a flag of `sjd train` makes, by their path in config.json: the flag's attribute. */
const FLAG_PATHS: Record<string, string> = {
  'model.size': 'size',
  'process.name': 'process',
  'process.blend': 'blend',
  'process.sigmaW': 'sigmaW',
  'process.sigmaB': 'sigmaB',
  'process.eta': 'eta',
  seed: 'seed',
  steps: 'steps',
  batch: 'batch',
  'lr.lr': 'lr',
  'lr.warmup': 'warmup',
  evalEvery: 'evalEvery',
  'model.precision': 'precision',
  length: 'length',
  holdOut: 'holdOut',
  augment: 'augment',
};

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The JSON object in `path`; one line naming the file otherwise. */
export function readConfigFile(path: string): Json {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--config ${path}: cannot read (${util.fsReason(e)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`--config ${path}: not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (!isObject(json)) throw new Error(`--config ${path}: not a JSON object of settings`);
  return json;
}

/** Every leaf of `o` (arrays are leaves) as [dotted path, value]. */
function leaves(o: Json, prefix = ''): [string, unknown][] {
  return Object.entries(o).flatMap(([k, v]) =>
    isObject(v) ? leaves(v, `${prefix}${k}.`) : [[`${prefix}${k}`, v] as [string, unknown]],
  );
}

/** `o` with `value` at the dotted `path` (objects made on the way). */
function setPath(o: Json, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = o;
  for (const k of keys.slice(0, -1)) {
    if (!isObject(at[k])) at[k] = {};
    at = at[k] as Json;
  }
  at[keys.at(-1)!] = value;
}

const getPath = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((at, k) => (isObject(at) ? at[k] : undefined), o);

/**
 * The file's settings split for `cmd` (the train command, its flags parsed): values for the flags
 * the command line leaves out (parsed by each flag's parser, so the file is checked as the flag
 * is), and the rest of the file, to lay over the config the flags build.
 */
export function configFlags(file: Json, cmd: Command, path: string): { flags: Json; rest: Json } {
  const flags: Json = {};
  const rest: Json = {};
  for (const [at, value] of leaves(file)) {
    const attr = FLAG_PATHS[at];
    const opt = attr && cmd.options.find((o) => o.attributeName() === attr);
    if (!opt) {
      setPath(rest, at, value);
      continue;
    }
    if (cmd.getOptionValueSource(attr) === 'cli') continue; // the command line overrides the file
    try {
      flags[attr] = opt.parseArg ? opt.parseArg(String(value), undefined) : value;
    } catch (e) {
      throw new Error(`--config ${path}: ${at}: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  return { flags, rest };
}

/**
 * `config` with the file's other settings laid over it, checked as a run's config.json is; a
 * setting that the checked config does not hold as given (a name the schema does not know) is
 * refused by its path.
 */
export function withConfigFile(config: T.TrainConfig, rest: Json, path: string): T.TrainConfig {
  const merged: Json = JSON.parse(JSON.stringify(config)); // a copy to lay the file's settings on
  for (const [at, value] of leaves(rest)) setPath(merged, at, value);
  const checked = T.parseConfig(merged, `--config ${path}`);
  for (const [at, value] of leaves(rest))
    if (JSON.stringify(getPath(checked, at)) !== JSON.stringify(value))
      throw new Error(`--config ${path}: ${at}: not a setting of a ${config.task} run's config`);
  return checked;
}
