// text8's normalisation (sec:exp-text8, app:text8; Matt Mahoney's wikifil.pl, which made text8
// from enwik9), applied to WikiExtractor output or plain text: `<doc ...>` / `</doc>` lines
// and the title line WikiExtractor writes after `<doc>` are dropped (wikifil keeps only an
// article's <text>), character entities decoded, references, tags, URLs, templates and link
// targets removed as wikifil does, A-Z lowercased, each digit spelled as a word (" zero " ...
// " nine "), every other character made a space, and runs of spaces collapsed to one. This is
// the whole-string definition; normalise-stream.ts gives the same output on text in pieces.
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** wikifil's substitutions on one line, in its order: character entities, then markup. */
export const WIKIFIL: readonly (readonly [RegExp, string])[] = [
  [/&amp;/g, '&'],
  [/&lt;/g, '<'],
  [/&gt;/g, '>'],
  [/&quot;/g, '"'],
  [/&nbsp;/g, ' '],
  [/<ref[^<]*<\/ref>/g, ''], // references
  [/<[^>]*>/g, ''], // remaining tags
  [/\[https?:[^\] ]*/g, '['], // external links keep their visible text
  [/\|(thumb|left|right|\d+px)/gi, ''],
  [/\[\[image:[^[\]]*\|/gi, ''],
  [/\[\[category:([^|\]]*)[^\]]*\]\]/gi, '[[$1]]'],
  [/\[\[[a-z-]*:[^\]]*\]\]/g, ''], // interlanguage links
  [/\[\[[^|\]]*\|/g, '[['], // link targets: keep the label
  [/\{\{[^}]*\}\}/g, ''], // templates
  [/\{[^}]*\}/g, ''],
  [/&[^;\s]*;/g, ' '], // other entities
];

/** One line of wiki prose in wikifil's order of substitutions; the result may hold any case. */
export function wikifilLine(line: string): string {
  let s = line;
  for (const [re, to] of WIKIFIL) s = s.replace(re, to);
  return s;
}

/** Digits spelled, A-Z lowercased, every run of other characters one space (none trimmed). */
export function foldChars(s: string): string {
  return s
    .replace(/[0-9]/g, (d) => ` ${DIGITS[Number(d)]} `)
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/[^a-z]+/g, ' ');
}

/** text -> a-z and single spaces, no leading or trailing space. */
export function spellAndFold(s: string): string {
  return foldChars(s).trim();
}

/** How many characters of a line docTag needs to see. */
export const DOC_TAG_CHARS = 6;

/** A WikiExtractor document's opening (`<doc ...>`) or closing (`</doc>`) line, by its start. */
export function docTag(line: string): 'open' | 'close' | undefined {
  if (line.startsWith('<doc ') || line.startsWith('<doc>')) return 'open';
  if (line.startsWith('</doc>')) return 'close';
  return undefined;
}

/** WikiExtractor output or plain text -> text8-style text (a-z and single spaces). */
export function normaliseText(raw: string): string {
  const out: string[] = [];
  let title = false;
  for (const line of raw.split(/\r?\n/)) {
    const tag = docTag(line);
    if (tag === 'open') {
      title = true;
      continue;
    }
    if (tag === 'close') continue;
    if (title) {
      title = false;
      continue;
    }
    const folded = spellAndFold(wikifilLine(line));
    if (folded) out.push(folded);
  }
  return out.join(' ');
}

/** True when `text` already is text8 (one line of a-z and spaces, an optional final newline). */
export function isText8(text: string): boolean {
  return /^[a-z ]*\n?$/.test(text) && text.trim().length > 0;
}
