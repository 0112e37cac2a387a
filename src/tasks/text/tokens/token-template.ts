// Templates of a token model (common/template.ts's, in tokens): a prompt's tokens first, a
// suffix's last in a text of `length` tokens, or an infill whose text is tokenised between its
// holes, each '_' one token to generate. The rest of the L positions sample freely and are cut,
// as text's are. Tokenising a piece alone can merge differently at its edges than the whole
// text would; the known tokens are exactly the pieces' own.
import {
  type FieldName,
  FLAG_NAMES,
  HOLE,
  placeTemplate,
  type Template,
  type TemplateSpec,
} from '../../common/template.js';
import type { TextTokenizer } from './tokenizer.js';

/** An infill's tokens, -1 for each hole. */
function infillTokens(s: string, tokenizer: TextTokenizer): number[] {
  const out: number[] = [];
  s.split(HOLE).forEach((piece, i) => {
    if (i > 0) out.push(-1);
    if (piece) for (const t of tokenizer.encode(piece)) out.push(t);
  });
  return out;
}

/** A template for a token model of L positions; null when the spec asks for nothing. */
export function tokenTemplate(
  spec: TemplateSpec,
  L: number,
  tokenizer: TextTokenizer,
  name: FieldName = FLAG_NAMES,
): Template | null {
  const encode = (s: string | undefined) => (s === undefined ? undefined : tokenizer.encode(s));
  const parts = {
    prompt: encode(spec.prompt),
    suffix: encode(spec.suffix),
    infill: spec.infill === undefined ? undefined : infillTokens(spec.infill, tokenizer),
  };
  return placeTemplate(parts, spec.length, L, { name, unit: 'tokens', result: 'text' });
}
