// Text templates (common/template.ts): a prompt, a suffix or an infill with holes, normalised as
// the corpus is (normalise.ts: letters lowercased, their marks kept where the model's alphabet
// holds letters with marks and stripped otherwise, digits spelled, every other run of characters
// one space; an infill's holes kept) and clamped in the model's alphabet (text8's by default). A text shorter than L is sampled at L (the model's one length)
// and cut: the positions past it are generated freely and dropped.
import { type Alphabet, TEXT8 } from '../common/alphabet.js';
import {
  type FieldName,
  FLAG_NAMES,
  makeTemplate,
  type Template,
  type TemplateSpec,
} from '../common/template.js';
import { foldChars, type Marks, stripMarks } from './normalise.js';

export { type FieldName, HOLE, type TemplateSpec } from '../common/template.js';

/** How text folds for a model over `alphabet`: marks kept where it holds a letter with marks. */
const marksOf = (alphabet: Alphabet): Marks =>
  alphabet.symbols.some((c) => c !== ' ' && stripMarks(c) !== c) ? 'keep' : 'strip';

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
  const marks = marksOf(alphabet);
  return makeTemplate(spec, L, {
    alphabet,
    name,
    normalise: (s) => foldChars(s, undefined, marks),
    described: alphabet === TEXT8 ? 'a-z and space' : undefined,
    unit: 'characters',
    result: 'text',
  });
}
