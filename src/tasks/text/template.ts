// Text templates (common/template.ts): a prompt, a suffix or an infill with holes, normalised as
// the corpus is (normalise.ts: letters lowercased with their accents stripped, digits spelled,
// every other run of characters one space; an infill's holes kept) and clamped in the model's
// alphabet (text8's by default). A text shorter than L is sampled at L (the model's one length)
// and cut: the positions past it are generated freely and dropped.
import { type Alphabet, TEXT8 } from '../common/alphabet.js';
import {
  type FieldName,
  FLAG_NAMES,
  makeTemplate,
  type Template,
  type TemplateSpec,
} from '../common/template.js';
import { foldChars } from './normalise.js';

export { type FieldName, HOLE, type TemplateSpec } from '../common/template.js';

/** A text template: known characters and holes. */
export type TextTemplate = Template;

/**
 * A template for a text model of L positions over `alphabet`; null when the spec asks for
 * nothing. Errors name the fields as `name` does (the CLI's flags by default).
 */
export function textTemplate(
  spec: TemplateSpec,
  L: number,
  name: FieldName = FLAG_NAMES,
  alphabet: Alphabet = TEXT8,
): TextTemplate | null {
  return makeTemplate(spec, L, {
    alphabet,
    name,
    normalise: (s) => foldChars(s),
    described: alphabet === TEXT8 ? 'a-z and space' : undefined,
    unit: 'characters',
    result: 'text',
  });
}
