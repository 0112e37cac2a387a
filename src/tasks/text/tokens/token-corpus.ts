// Token corpora (docs/text.md, "Token corpora"): raw text, not normalised, tokenised (GPT-2's BPE
// or a HuggingFace tokenizer.json; tokenizer.ts) and split contiguously 90/5/5 (or --hold-out's
// share each for valid and test, common/hold-out.ts) into train.tok, valid.tok and test.tok
// (token-file.ts), with corpus.json (source, tokenizer, each split's count and sha256) and, for a
// tokenizer.json, its copy, so that the folder is all a reader needs. Sources are those of the
// text8 corpus (source.ts: a file, a folder's files in name order, a zip's entries, the embedded
// addresses), joined by a blank line. Written in bounded memory: the text is encoded a piece at
// a time (pieces.ts) and the ids appended to the file that becomes train.tok; the folder is
// claimed before anything is read and put in place atomically, as the text8 corpus's is
// (corpus.ts).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { replaceDirAtomic, writeFileAtomic, writeJsonAtomic } from '../../../util/atomic.js';
import { claimOutDir, type FolderKind } from '../../../util/out-path.js';
import { CORPUS_HOLD_OUT, corpusSplit } from '../../common/hold-out.js';
import { joinDocuments, type SourceProgress } from '../document-sink.js';
import { CHUNK_BYTES, decodeSource, planSource } from '../source.js';
import { PieceCutter } from './pieces.js';
import { readTokenFile, splitTokenFile, TokenFileWriter, type TokenIds } from './token-file.js';
import {
  BUILT_IN_TOKENIZERS,
  loadTokenizer,
  type TextTokenizer,
  TOKENIZER_FILE,
} from './tokenizer.js';

export const TOKEN_CORPUS_FORMAT = 'sjd-tokens';
export const TOKEN_CORPUS_VERSION = 1;
/** Fewer tokens than this make no corpus (each split needs some). */
export const MIN_TOKENS = 1000;
/** What separates two documents (files, zip entries, addresses) in the token stream. */
export const DOCUMENT_SEPARATOR = '\n\n';

const SPLITS = ['train', 'valid', 'test'] as const;
type TokenSplit = (typeof SPLITS)[number];
const META = 'corpus.json';
const splitFile = (s: TokenSplit) => `${s}.tok`;

const splitSchema = z.object({ tokens: z.number().int().min(0), sha256: z.string() });
const metaSchema = z.object({
  format: z.literal(TOKEN_CORPUS_FORMAT),
  version: z.number().int().min(1).max(TOKEN_CORPUS_VERSION),
  source: z.string(),
  tokenizer: z.object({
    // a corpus names a built-in tokenizer or its own copy, never a file elsewhere
    spec: z.string().refine((s) => s === TOKENIZER_FILE || BUILT_IN_TOKENIZERS.includes(s), {
      message: `${BUILT_IN_TOKENIZERS.join(', ')} or ${TOKENIZER_FILE}`,
    }),
    name: z.string(),
    vocab: z.number().int().min(1),
    sha256: z.string().optional(),
    from: z.string().optional(),
  }),
  splits: z.object({ train: splitSchema, valid: splitSchema, test: splitSchema }),
  /** how many tokens of the corpus are the tokenizer's unknown token, where it has one */
  unknown: z.object({ token: z.string(), count: z.number().int().min(0) }).optional(),
  /** --hold-out as spelled, where it was not the default 90/5/5 */
  holdOut: z.string().optional(),
});
export type TokenCorpusMeta = z.infer<typeof metaSchema>;

export interface TokenCorpus {
  train: TokenIds;
  valid: TokenIds;
  test: TokenIds;
  tokenizer: TextTokenizer;
  source: string;
  /** sha256 of train.tok (a run's data hash, as the text8 corpus's is its train split's) */
  hash: string;
}

export interface TokenCorpusOptions {
  /** `gpt2` or a path to a HuggingFace tokenizer.json */
  tokenizer: string;
  /** Replace `out` even when it is not a token corpus folder sjd wrote. */
  force?: boolean;
  /** told the source's bytes read or expanded so far and the total (a command's progress bar) */
  progress?: SourceProgress;
  /** Bytes read at a time, and characters encoded at a time (tests use a few). */
  chunkBytes?: number;
  /** Keep a corpus more than MAX_UNKNOWN_SHARE of whose tokens are the unknown token. */
  allowUnknown?: boolean;
  /** the share of the corpus each of valid and test holds, as --hold-out spells it (default 5%) */
  holdOut?: string;
}

/** The share of unknown tokens above which a corpus is refused unless allowed: its samples would be mostly the unknown token. */
export const MAX_UNKNOWN_SHARE = 0.05;

/** Refuses a corpus of `n` tokens, `unknown.count` of them unknown, above the share allowed. */
function checkUnknown(
  from: string,
  n: number,
  tokenizer: TextTokenizer,
  unknown: { token: string; count: number } | undefined,
  allow: boolean,
): void {
  if (!unknown || allow || unknown.count <= MAX_UNKNOWN_SHARE * n) return;
  const pct = ((100 * unknown.count) / n).toFixed(1);
  throw new Error(
    `${from}: ${pct}% of the tokens (${unknown.count} of ${n}) are ${tokenizer.name}'s unknown token ${unknown.token}, so samples would be mostly ${unknown.token}; use a tokenizer whose vocabulary covers the text (gpt2, or a byte-level tokenizer.json), or keep it with --allow-unknown`,
  );
}

/** The corpus.json of a folder, or null when it has none that parses. */
function readMeta(dir: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dir, META), 'utf8'));
  } catch {
    return null;
  }
}

/** A token corpus folder: its corpus.json says so. */
export function isTokenCorpus(dir: string): boolean {
  return (readMeta(dir) as { format?: unknown } | null)?.format === TOKEN_CORPUS_FORMAT;
}

export const TOKEN_CORPUS_FOLDER: FolderKind = {
  name: 'token corpus folder',
  isOurs: isTokenCorpus,
  entries: [META, TOKENIZER_FILE, ...SPLITS.map(splitFile)],
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Tokenises a source into the token corpus folder `out`; returns its corpus.json. `out` is
 * claimed before the source is read (a user's folder needs `force`) and replaced atomically; on
 * failure nothing is left behind and `out` is as it was.
 */
export function writeTokenCorpus(
  from: string,
  out: string,
  opts: TokenCorpusOptions,
): TokenCorpusMeta {
  claimOutDir(out, TOKEN_CORPUS_FOLDER, opts.force ?? false);
  const plan = planSource(from, out);
  const tokenizer = loadTokenizer(opts.tokenizer);
  const chunk = opts.chunkBytes ?? CHUNK_BYTES;
  return replaceDirAtomic(out, (tmp) => {
    const stream = join(tmp, splitFile('train')); // every id, cut to the train split at the end
    const writer = new TokenFileWriter(stream, tokenizer.vocab, out);
    const unk = tokenizer.unknown;
    let unknowns = 0;
    const encode = (p: string) => {
      const ids = tokenizer.encode(p);
      if (unk) for (const id of ids) if (id === unk.id) unknowns++;
      return ids;
    };
    try {
      const pieces = new PieceCutter((p) => writer.append(encode(p)), chunk);
      const sink = joinDocuments(DOCUMENT_SEPARATOR, (t) => pieces.push(t));
      decodeSource(plan, sink, { chunkBytes: chunk, progress: opts.progress });
      pieces.end();
      writer.finish();
    } finally {
      writer.close();
    }
    const n = writer.count;
    if (n < MIN_TOKENS)
      throw new Error(`${from}: only ${n} tokens (${tokenizer.name}; need at least ${MIN_TOKENS})`);
    const unknown = unk && { token: unk.token, count: unknowns };
    checkUnknown(from, n, tokenizer, unknown, opts.allowUnknown ?? false);
    const holdOut = opts.holdOut ?? CORPUS_HOLD_OUT;
    const [a, b] = corpusSplit(n, holdOut, `tokens of ${from}`);
    const counts = [a, b - a, n - b];
    const parts = SPLITS.map((s, i) => ({ path: join(tmp, splitFile(s)), tokens: counts[i]! }));
    const [train, valid, test] = splitTokenFile(stream, tokenizer.vocab, parts, out);
    const meta: TokenCorpusMeta = {
      format: TOKEN_CORPUS_FORMAT,
      version: TOKEN_CORPUS_VERSION,
      source: from,
      tokenizer: { spec: tokenizer.spec, name: tokenizer.name, vocab: tokenizer.vocab },
      splits: { train: train!, valid: valid!, test: test! },
      ...(unknown && { unknown }),
      ...(holdOut !== CORPUS_HOLD_OUT && { holdOut }),
    };
    if (tokenizer.json !== undefined) {
      writeFileAtomic(join(tmp, TOKENIZER_FILE), tokenizer.json);
      Object.assign(meta.tokenizer, { sha256: sha256(tokenizer.json), from: opts.tokenizer });
    }
    writeJsonAtomic(join(tmp, META), meta);
    return meta;
  });
}

/** corpus.json of a token corpus folder, checked. */
function corpusMeta(dir: string): TokenCorpusMeta {
  const p = join(dir, META);
  if (!existsSync(p))
    throw new Error(
      `${dir}: no ${META} (make a token corpus with \`sjd data tokens --out ${dir}\`)`,
    );
  const raw = readMeta(dir);
  if (raw === null) throw new Error(`${p}: not valid JSON`);
  if ((raw as { format?: unknown }).format !== TOKEN_CORPUS_FORMAT)
    throw new Error(`${p}: not a token corpus (its format is not ${TOKEN_CORPUS_FORMAT})`);
  const r = metaSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new Error(`${p}: ${issue.path.join('.') || 'the file'}: ${issue.message}`);
  }
  return r.data;
}

/**
 * A token corpus written by writeTokenCorpus: its splits' ids and its tokenizer, every file
 * checked against corpus.json (vocab, count, sha256); errors are one line naming the file.
 */
export function loadTokenCorpus(dir: string): TokenCorpus {
  const meta = corpusMeta(dir);
  const tokenizer = loadTokenizer(meta.tokenizer.spec, dir);
  const changed = (file: string, what: string) =>
    new Error(`${join(dir, file)}: ${what} differs from ${META}'s (changed since sjd wrote it)`);
  if (tokenizer.vocab !== meta.tokenizer.vocab) throw changed(meta.tokenizer.spec, 'vocab');
  if (meta.tokenizer.sha256 !== undefined && sha256(tokenizer.json ?? '') !== meta.tokenizer.sha256)
    throw changed(meta.tokenizer.spec, 'sha256');
  const ids = {} as Record<TokenSplit, TokenIds>;
  for (const s of SPLITS) {
    const p = join(dir, splitFile(s));
    if (!existsSync(p)) throw new Error(`${p}: no such file (the corpus is incomplete)`);
    const f = readTokenFile(p);
    const want = meta.splits[s];
    if (f.vocab !== tokenizer.vocab) throw changed(splitFile(s), 'vocab');
    if (f.ids.length !== want.tokens) throw changed(splitFile(s), 'token count');
    if (f.sha256 !== want.sha256) throw changed(splitFile(s), 'sha256');
    ids[s] = f.ids;
  }
  return { ...ids, tokenizer, source: meta.source, hash: meta.splits.train.sha256 };
}
