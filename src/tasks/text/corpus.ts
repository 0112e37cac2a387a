// Text8-style corpora (app:text8): 27 tokens (a-z = 0..25, space = 26), a contiguous 90/5/5
// train/valid/test split of one normalised character stream, as text8 is split. Sources
// (source.ts): a folder or file of WikiExtractor output or plain text, the real `text8` file or
// `text8.zip`, and the embedded State of the Union corpus, so a fresh machine needs no data. A
// corpus folder holds train.txt, valid.txt, test.txt and corpus.json (source, sizes, sha256 of
// each split). It is written in bounded memory whatever the source's size: the normalised stream
// goes to a file in the folder being built, which is then split and cut to the train split; the
// folder is claimed before anything is read and put in place atomically (util/).
import { constants } from 'node:buffer';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { fsReason, replaceDirAtomic, writeJsonAtomic } from '../../util/atomic.js';
import { claimOutDir, type FolderKind } from '../../util/out-path.js';
import { isText8, normaliseText } from './normalise.js';
import {
  CHUNK_BYTES,
  EMBEDDED,
  embeddedFiles,
  normaliseSource,
  planSource,
  type SourcePlan,
} from './source.js';

export { EMBEDDED } from './source.js';
export const ALPHABET = 'abcdefghijklmnopqrstuvwxyz ';
export const VOCAB = ALPHABET.length; // 27
export const SPACE = 26;

export interface Corpus {
  train: string;
  valid: string;
  test: string;
  source: string;
}

const FORMAT = 'sjd-text8';
const MIN_CHARS = 1000;

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

/** How often each token occurs in `text` ([VOCAB] integer counts; p0 of the hazard weights). */
export function tokenCounts(text: string): number[] {
  const counts = new Array<number>(VOCAB).fill(0);
  for (const t of encode(text)) counts[t]!++;
  return counts;
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

/** The embedded default: State of the Union addresses in chronological order, normalised. */
export function embeddedText(): string {
  return normaliseText(
    embeddedFiles()
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n'),
  );
}

export interface CorpusOptions {
  /** Replace --out even when it is not a corpus folder sjd wrote. */
  force?: boolean;
  /** Bytes read at a time (tests use a few, to put every case across a chunk boundary). */
  chunkBytes?: number;
  /** Characters of one line a markup construct may hold open (normalise-stream.ts). */
  limit?: number;
  /** told the source's bytes read so far and the total (a command's progress bar) */
  progress?: (read: number, total: number) => void;
}

function checkLength(source: string, chars: number): void {
  if (chars < MIN_CHARS)
    throw new Error(
      `${source}: only ${chars} characters after normalisation (need at least ${MIN_CHARS})`,
    );
}

/** The whole normalised character stream of a source, in memory (for sources that fit). */
export function readSource(source: string, opts: CorpusOptions = {}): string {
  const parts: string[] = [];
  normaliseSource(planSource(source), (t) => parts.push(t), opts);
  const text = parts.join('');
  checkLength(source, text.length);
  return text;
}

/** A corpus folder: recognised by its corpus.json, holding the three splits. */
export const CORPUS_FOLDER: FolderKind = {
  name: 'corpus folder',
  isOurs(dir: string): boolean {
    try {
      return JSON.parse(readFileSync(join(dir, 'corpus.json'), 'utf8')).format === FORMAT;
    } catch {
      return false;
    }
  },
  entries: ['corpus.json', ...SPLITS.map((s) => `${s}.txt`)],
};

/** write(2) may write less than asked: loops until all of `data` (one byte a character) is written. */
function writeAll(fd: number, data: Uint8Array | string): void {
  for (let at = 0; at < data.length; )
    at +=
      typeof data === 'string'
        ? writeSync(fd, at === 0 ? data : data.slice(at), null, 'latin1')
        : writeSync(fd, data, at, data.length - at);
}

/** Writes the normalised stream of `plan` to `path` in pieces; returns its length. */
function writeStream(plan: SourcePlan, path: string, out: string, opts: CorpusOptions): number {
  const fd = openSync(path, 'w');
  let pending: string[] = [];
  let held = 0;
  let chars = 0;
  const flush = () => {
    try {
      writeAll(fd, pending.join(''));
    } catch (e) {
      throw new Error(`cannot write ${out}: ${fsReason(e)}`);
    }
    pending = [];
    held = 0;
  };
  try {
    normaliseSource(
      plan,
      (t) => {
        pending.push(t);
        held += t.length;
        chars += t.length;
        if (held >= CHUNK_BYTES) flush();
      },
      opts,
    );
    flush();
  } finally {
    closeSync(fd);
  }
  return chars;
}

/**
 * Splits the stream file at `path` (n characters, one byte each) 90/5/5 as splitText does: the
 * valid and test parts are copied out, then the file is cut to the train part. Returns each
 * split's length and sha256.
 */
function splitStream(path: string, dir: string, n: number, out: string) {
  const a = Math.floor(n * 0.9);
  const b = Math.floor(n * 0.95);
  const ranges: [SplitName, number, number][] = [
    ['train', 0, a],
    ['valid', a, b],
    ['test', b, n],
  ];
  const fd = openSync(path, 'r+');
  const meta: Record<string, { chars: number; sha256: string }> = {};
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    for (const [s, from, to] of ranges) {
      const hash = createHash('sha256');
      const copy = s === 'train' ? undefined : openSync(join(dir, `${s}.txt`), 'w');
      try {
        for (let at = from; at < to; ) {
          const got = readSync(fd, buf, 0, Math.min(CHUNK_BYTES, to - at), at);
          if (got === 0) throw new Error(`${out}: the stream file ended at ${at} of ${n} bytes`);
          hash.update(buf.subarray(0, got));
          if (copy !== undefined) writeAll(copy, buf.subarray(0, got));
          at += got;
        }
      } finally {
        if (copy !== undefined) closeSync(copy);
      }
      meta[s] = { chars: to - from, sha256: hash.digest('hex') };
    }
    ftruncateSync(fd, a);
  } catch (e) {
    if (e instanceof Error && !(e as NodeJS.ErrnoException).code) throw e;
    throw new Error(`cannot write ${out}: ${fsReason(e)}`);
  } finally {
    closeSync(fd);
  }
  return meta;
}

/**
 * Normalises and splits a source into the corpus folder `out`; returns its corpus.json. `out`
 * is claimed before the source is read (a user's folder needs `force`) and replaced atomically;
 * on failure nothing is left behind and `out` is as it was.
 */
export function writeCorpus(
  source: string,
  out: string,
  opts: CorpusOptions = {},
): Record<string, unknown> {
  claimOutDir(out, CORPUS_FOLDER, opts.force ?? false);
  const plan = planSource(source, out);
  return replaceDirAtomic(out, (tmp) => {
    const stream = join(tmp, 'train.txt'); // the whole stream, cut to the train split at the end
    const n = writeStream(plan, stream, out, opts);
    checkLength(source, n);
    const meta: Record<string, unknown> = { format: FORMAT, source, alphabet: ALPHABET };
    Object.assign(meta, splitStream(stream, tmp, n, out));
    writeJsonAtomic(join(tmp, 'corpus.json'), meta);
    return meta;
  });
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
    const bytes = statSync(p).size;
    if (bytes > constants.MAX_STRING_LENGTH)
      throw new Error(
        `${p}: ${bytes} bytes, more than one JS string holds (${constants.MAX_STRING_LENGTH} characters); make a smaller corpus`,
      );
    try {
      parts[s] = readFileSync(p, 'utf8');
    } catch (e) {
      throw new Error(`${p}: cannot read (${fsReason(e)})`);
    }
    if (!isText8(parts[s])) throw new Error(`${p}: not text8 format (one line of a-z and spaces)`);
  }
  return { ...parts, source: dir };
}

export function corpusHash(c: Corpus): string {
  return createHash('sha256').update(c.train).digest('hex');
}
