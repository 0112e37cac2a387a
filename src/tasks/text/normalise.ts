// text8's normalisation (sec:exp-text8, app:text8; Matt Mahoney's wikifil.pl, which made text8
// from enwik9), applied to WikiExtractor output or plain text: `<doc ...>` / `</doc>` lines
// and the title line WikiExtractor writes after `<doc>` are dropped (wikifil keeps only an
// article's <text>), character entities decoded, references, tags, URLs, templates and link
// targets removed as wikifil does, A-Z lowercased, each digit spelled as a word (" zero " ...
// " nine "), every other character made a space, and runs of spaces collapsed to one.
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

const ENTITIES: [RegExp, string][] = [
  [/&amp;/g, '&'],
  [/&lt;/g, '<'],
  [/&gt;/g, '>'],
  [/&quot;/g, '"'],
  [/&nbsp;/g, ' '],
];

/** One line of wiki prose in wikifil's order of substitutions; the result may hold any case. */
function wikifilLine(line: string): string {
  let s = line;
  for (const [re, to] of ENTITIES) s = s.replace(re, to);
  s = s
    .replace(/<ref[^<]*<\/ref>/g, '') // references
    .replace(/<[^>]*>/g, '') // remaining tags
    .replace(/\[https?:[^\] ]*/g, '[') // external links keep their visible text
    .replace(/\|(thumb|left|right|\d+px)/gi, '')
    .replace(/\[\[image:[^[\]]*\|/gi, '')
    .replace(/\[\[category:([^|\]]*)[^\]]*\]\]/gi, '[[$1]]')
    .replace(/\[\[[a-z-]*:[^\]]*\]\]/g, '') // interlanguage links
    .replace(/\[\[[^|\]]*\|/g, '[[') // link targets: keep the label
    .replace(/\{\{[^}]*\}\}/g, '') // templates
    .replace(/\{[^}]*\}/g, '')
    .replace(/&[^;\s]*;/g, ' '); // other entities
  return s;
}

/** text -> a-z and single spaces, no leading or trailing space. */
export function spellAndFold(s: string): string {
  return s
    .replace(/[0-9]/g, (d) => ` ${DIGITS[Number(d)]} `)
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

/** WikiExtractor output or plain text -> text8-style text (a-z and single spaces). */
export function normaliseText(raw: string): string {
  const out: string[] = [];
  let title = false;
  for (const line of raw.split(/\r?\n/)) {
    if (line.startsWith('<doc ') || line.startsWith('<doc>')) {
      title = true;
      continue;
    }
    if (line.startsWith('</doc>')) continue;
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
