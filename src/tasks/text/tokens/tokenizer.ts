// Tokenizers of raw text for token corpora (token-corpus.ts): GPT-2's byte-level BPE, whose ranks
// ship inside the npm package js-tiktoken (so nothing is downloaded), or any HuggingFace
// `tokenizer.json` (BPE, WordPiece, Unigram or WordLevel) through the pure-JS
// @huggingface/tokenizers. Encoding adds no special token (no BOS, no EOS): a special token is
// encoded only where the text spells it (`<|endoftext|>` in the text is GPT-2's id 50256).
// Decoding gives the text back as the tokenizer's decoder writes it, nothing cleaned up (exactly
// the text for byte-level BPE).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Tokenizer } from '@huggingface/tokenizers';
import type { TiktokenBPE } from 'js-tiktoken/lite';
import { fsReason } from '../../../util/atomic.js';

export interface TextTokenizer {
  /** what it is, for people: `gpt2`, `BPE tokenizer.json` */
  name: string;
  /** how a corpus names it: `gpt2`, or `tokenizer.json` for a file (a corpus keeps its copy) */
  spec: string;
  /** ids are 0..vocab-1 */
  vocab: number;
  /** the tokenizer.json text of a file tokenizer (what a corpus folder copies) */
  json?: string;
  /** the token it gives what its vocabulary lacks, where it has one (GPT-2's bytes lack nothing) */
  unknown?: { token: string; id: number };
  encode(text: string): number[];
  decode(ids: ArrayLike<number>): string;
}

export const GPT2 = 'gpt2';
/** GPT-2's vocabulary: 256 bytes, 50,000 merges and <|endoftext|>. */
export const GPT2_VOCAB = 50257;
/** The name of a tokenizer file, and of its copy in a corpus folder. */
export const TOKENIZER_FILE = 'tokenizer.json';
/** A tokenizer.json larger than this is refused (the largest published ones are about 20 MB). */
const MAX_TOKENIZER_BYTES = 256 << 20;
/** The HuggingFace models @huggingface/tokenizers implements (WordLevel: its Legacy model). */
const HF_MODELS = ['BPE', 'WordPiece', 'Unigram', 'WordLevel'];

/** Refuses an id outside 0..vocab-1, naming the tokenizer and the id's position. */
function checkIds(ids: ArrayLike<number>, vocab: number, name: string): void {
  for (let i = 0; i < ids.length; i++) {
    const t = ids[i]!;
    if (!(Number.isInteger(t) && t >= 0 && t < vocab))
      throw new Error(`${name}: token ${t} at position ${i} is outside 0..${vocab - 1}`);
  }
}

// The libraries are loaded on first use, not when sjd starts (every command imports this file).
const load = createRequire(import.meta.url);

let gpt2: TextTokenizer | undefined; // built once: reading the ranks takes most of a second

/** GPT-2's BPE from the ranks in js-tiktoken. */
function gpt2Tokenizer(): TextTokenizer {
  if (gpt2) return gpt2;
  const { Tiktoken } = load('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  const bpe = new Tiktoken(load('js-tiktoken/ranks/gpt2') as TiktokenBPE);
  gpt2 = {
    name: GPT2,
    spec: GPT2,
    vocab: GPT2_VOCAB,
    encode: (text) => bpe.encode(text, 'all'),
    decode: (ids) => {
      checkIds(ids, GPT2_VOCAB, GPT2);
      return bpe.decode(ids as number[]);
    },
  };
  return gpt2;
}

/** The tokenizers a name gives (anything else is a path to a tokenizer.json). */
const BUILT_IN: Record<string, () => TextTokenizer> = { [GPT2]: gpt2Tokenizer };
export const BUILT_IN_TOKENIZERS: readonly string[] = Object.keys(BUILT_IN);

/** The text of a tokenizer file; a failure is one line naming it. */
function readTokenizerFile(path: string): string {
  if (!existsSync(path))
    throw new Error(`${path}: no such file (--tokenizer takes ${GPT2} or a tokenizer.json)`);
  try {
    const st = statSync(path);
    if (st.isDirectory()) throw new Error(`${path}: a folder, not a tokenizer.json`);
    if (st.size > MAX_TOKENIZER_BYTES)
      throw new Error(`${path}: ${st.size} bytes, more than a tokenizer.json sjd reads`);
    return readFileSync(path, 'utf8');
  } catch (e) {
    if (!(e as NodeJS.ErrnoException).code) throw e;
    throw new Error(`${path}: cannot read (${fsReason(e)})`);
  }
}

/** A HuggingFace tokenizer.json, read and checked; errors are one line naming the file. */
const fileTokenizer = (path: string): TextTokenizer =>
  tokenizerFromJson(readTokenizerFile(path), path);

/** The vocabulary's size: its largest id plus one; an id that is not a whole number from 0 is refused. */
function vocabSize(tok: Tokenizer, path: string): number {
  let vocab = 0;
  for (const [token, id] of tok.model!.tokens_to_ids) {
    if (!(Number.isInteger(id) && id >= 0))
      throw new Error(
        `${path}: token ${JSON.stringify(token)} has id ${id} (ids are whole numbers from 0)`,
      );
    vocab = Math.max(vocab, id + 1);
  }
  if (vocab === 0) throw new Error(`${path}: the tokenizer has an empty vocabulary`);
  return vocab;
}

/**
 * A HuggingFace tokenizer from the text of its tokenizer.json (a file's, or the copy a model's
 * config keeps); errors are one line naming `path`, where the text came from.
 */
export function tokenizerFromJson(text: string, path: string): TextTokenizer {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const model = json?.model as { type?: unknown; unk_token?: unknown } | undefined;
  if (typeof json !== 'object' || Array.isArray(json) || typeof model !== 'object' || !model)
    throw new Error(`${path}: not a tokenizer.json (no "model" object)`);
  if (!HF_MODELS.includes(String(model.type)))
    throw new Error(
      `${path}: unsupported tokenizer model ${JSON.stringify(model.type)} (sjd reads ${HF_MODELS.join(', ')})`,
    );
  const { Tokenizer } = load('@huggingface/tokenizers') as typeof import('@huggingface/tokenizers');
  let tok: Tokenizer;
  try {
    const parts = { normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null };
    tok = new Tokenizer(
      { ...parts, added_tokens: [], ...json },
      // WordLevel's unknown token (the library reads it from the config); decode as written
      { unk_token: model.unk_token, clean_up_tokenization_spaces: false },
    );
  } catch (e) {
    throw new Error(`${path}: unsupported tokenizer (${String(e).split('\n')[0]})`);
  }
  const vocab = vocabSize(tok, path);
  const name = `${model.type} ${TOKENIZER_FILE}`;
  const unk = typeof model.unk_token === 'string' ? model.unk_token : undefined;
  const unkId = unk === undefined ? undefined : tok.model!.tokens_to_ids.get(unk);
  return {
    name,
    spec: TOKENIZER_FILE,
    vocab,
    json: text,
    ...(unk !== undefined && unkId !== undefined && { unknown: { token: unk, id: unkId } }),
    encode(s) {
      const e = tok.encode(s, { add_special_tokens: false });
      const at = e.ids.findIndex((id: number | undefined) => id === undefined);
      if (at >= 0)
        throw new Error(
          `${path}: cannot encode ${JSON.stringify(e.tokens[at])}: not in the vocabulary, and the tokenizer has no unk_token`,
        );
      checkIds(e.ids, vocab, path);
      return e.ids;
    },
    decode(ids) {
      checkIds(ids, vocab, path);
      if (ids.length === 0) return ''; // the library refuses an empty list
      return tok.decode(Array.from(ids), {
        skip_special_tokens: false,
        clean_up_tokenization_spaces: false,
      });
    },
  };
}

/**
 * The tokenizer `spec` names: `gpt2`, or a path to a HuggingFace tokenizer.json (relative paths
 * from `dir` when given: a corpus folder names its copy `tokenizer.json`).
 */
export function loadTokenizer(spec: string, dir?: string): TextTokenizer {
  if (Object.hasOwn(BUILT_IN, spec)) return BUILT_IN[spec]!();
  return fileTokenizer(dir === undefined ? spec : resolve(dir, spec));
}
