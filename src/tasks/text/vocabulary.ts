// A text model's vocabulary, from its config: a character alphabet (text8's unless the config
// names another) or a tokenizer (a model trained on a token corpus). How its tokens read back
// (sampling's decoding, the page's pieces) and how a template is built for it.
import type { TrainConfig } from '../../train/index.js';
import { type Alphabet, TEXT8 } from '../common/alphabet.js';
import type { FieldName, Template, TemplateSpec } from '../common/template.js';
import { textTemplate } from './template.js';
import { tokenTemplate } from './tokens/token-template.js';
import { loadTokenizer, type TextTokenizer, tokenizerFromJson } from './tokens/tokenizer.js';

type VocabularyConfig = Pick<TrainConfig, 'alphabet' | 'tokenizer'>;

/** A text model's alphabet: its config's, else text8's (the models before other alphabets). */
export const textAlphabet = (config: VocabularyConfig): Alphabet => config.alphabet ?? TEXT8;

const tokenizers = new WeakMap<object, TextTokenizer>();

/** A token model's tokenizer (from its config), or undefined for a character model. */
export function textTokenizer(config: VocabularyConfig): TextTokenizer | undefined {
  const t = config.tokenizer;
  if (!t) return undefined;
  const known = tokenizers.get(t);
  if (known) return known;
  const tok =
    t.json === undefined
      ? loadTokenizer(t.spec)
      : tokenizerFromJson(t.json, "the model's tokenizer.json");
  if (tok.vocab !== t.vocab)
    throw new Error(`the model's tokenizer has ${tok.vocab} tokens, its config says ${t.vocab}`);
  tokenizers.set(t, tok);
  return tok;
}

/** How a text model's rows decode: through its tokenizer, or its alphabet. */
export const textDecoding = (
  config: VocabularyConfig,
): { tokenizer: TextTokenizer } | { alphabet: Alphabet } => {
  const tokenizer = textTokenizer(config);
  return tokenizer ? { tokenizer } : { alphabet: textAlphabet(config) };
};

/** The text of each of a model's tokens: a character, or a BPE token's piece. */
export function tokenPieces(config: VocabularyConfig): string[] {
  const tokenizer = textTokenizer(config);
  if (!tokenizer) return [...textAlphabet(config).symbols];
  return Array.from({ length: tokenizer.vocab }, (_, id) => tokenizer.decode([id]));
}

/** A template for a text model of L positions: in characters, or in its tokens. */
export function modelTemplate(
  config: VocabularyConfig,
  spec: TemplateSpec,
  L: number,
  name?: FieldName,
): Template | null {
  const tokenizer = textTokenizer(config);
  return tokenizer
    ? tokenTemplate(spec, L, tokenizer, name)
    : textTemplate(spec, L, name, textAlphabet(config));
}

/** What one position of a model holds, in messages. */
export const textUnit = (config: VocabularyConfig): string =>
  config.tokenizer ? 'tokens' : 'characters';
