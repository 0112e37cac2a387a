// The `sjd` command lines README.md and docs/**/*.md show, for the tests that parse them
// (doc-commands.test.ts) and run them (doc-runs.test.ts): in shell code blocks (`npx sjd ...`,
// `node bin/sjd.js ...`, continuation lines joined, comments and what follows `&&`, `;`, `|`, `>`
// cut) and in inline code (`npx sjd ...`, `sjd ...` with flags or placeholders); inline code that
// only names a command (`sjd eval sudoku`) is a mention. The docs' synopses are expanded: `[...]`
// is included, `(a | b)` and `a|b` take the first choice, and the placeholders are substituted as
// PLACEHOLDERS says (paths under a folder the caller gives for FILE, DIR and PATH); a line that
// needed none of this is `literal`, a command as a user would type it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname;

/** A placeholder's value, by the flag before it (`*`: any other place), paths under `tmp`. */
const placeholders = (tmp: string): Record<string, Record<string, string>> => ({
  N: { '--threads': '1', '*': '2' }, // --threads: at most the machine's cores
  S: { '*': '0' }, // a seed
  L: { '--levels': '16', '--length': '8' }, // grey levels (a power of two), sequence length
  MS: { '*': '1000' },
  FILE: { '--doc': join(tmp, 'report.md'), '*': join(tmp, 'file') }, // --doc must be .md
  DIR: { '*': join(tmp, 'dir') },
  PATH: { '*': join(tmp, 'path') },
});
/** Placeholders in angle brackets. */
const ANGLED: Record<string, string> = {
  '<81 digits>':
    '530070000600195000098000060800060003400803001700020006060000280000419005000080079',
  '<command>': 'info',
};

export interface DocCommand {
  file: string;
  line: number;
  text: string; // as shown
  args: string[]; // after expansion
  mention: boolean; // a command's name only: checked by --help
  literal: boolean; // as a user would type it: no synopsis to expand
  stdoutTo?: string; // the file the line's `> FILE` sends its output to
}

/** The Markdown files under a folder of the repository, recursively, as repository paths. */
const markdownUnder = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) =>
      e.isDirectory()
        ? markdownUnder(`${dir}/${e.name}`)
        : e.name.endsWith('.md')
          ? [`${dir}/${e.name}`]
          : [],
    );

export const docFiles = (): string[] => ['README.md', ...markdownUnder('docs')];

/** Shell words, with '...' and "..." quoting. */
function words(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** A synopsis made runnable: optional parts in, first choices, placeholders substituted. */
function expand(synopsis: string, tmp: string): string[] {
  const PLACEHOLDERS = placeholders(tmp);
  let s = synopsis.replace(/\\\|/g, '|');
  for (const [k, v] of Object.entries(ANGLED)) s = s.split(k).join(v);
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(/\(([^()]*)\)/g, (_, inner: string) => inner.split(' | ')[0]!);
    s = s.replace(/\[([^[\]]*)\]/g, '$1');
  }
  const ws = words(s).map((w) => (w.startsWith('-') ? w : w.split('|')[0]!));
  return ws.map((w, i) => {
    const p = PLACEHOLDERS[w];
    if (p === undefined) return w;
    const v = p[ws[i - 1] ?? ''] ?? p['*'];
    if (v === undefined) throw new Error(`no value for ${w} after ${ws[i - 1]} in: ${synopsis}`);
    return v;
  });
}

/** A command line with nothing to expand: no optional part, choice or placeholder. */
const isLiteral = (rest: string): boolean =>
  !/[[\]|<>]|\(.*\|.*\)/.test(rest) &&
  !words(rest).some((w) => w.split(/[/.]/).some((part) => PLACEHOLDER_NAMES.has(part)));

/** Names the docs use for a value to fill in (a set of puzzles: SET). */
const PLACEHOLDER_NAMES = new Set([...Object.keys(placeholders('')), 'SET']);

const LAUNCHER = /(?:^|\s)(?:npx sjd|node bin\/sjd\.js)(?=\s|$)/;

/** The command lines and command names one Markdown file shows. */
function extract(file: string, markdown: string, tmp: string): DocCommand[] {
  const found: DocCommand[] = [];
  const lines = markdown.split('\n');
  let fence: string | undefined;
  let prose: { text: string; line: number }[] = [];
  const flushProse = () => {
    // inline code may wrap across the lines of one paragraph
    const joined = prose.map((p) => p.text).join('\n');
    for (const m of joined.matchAll(/`([^`]+)`/g)) {
      const line = prose[0]!.line + joined.slice(0, m.index).split('\n').length - 1;
      const code = m[1]!.replace(/\s+/g, ' ').trim();
      const launched = LAUNCHER.exec(code);
      const rest = launched
        ? code.slice(launched.index + launched[0].length).trim()
        : /^sjd\s/.test(code)
          ? code.slice(4).trim()
          : undefined;
      if (rest === undefined) continue;
      const mention = !launched && /^[a-z0-9][a-z0-9-]*( [a-z0-9][a-z0-9-]*)*$/.test(rest);
      found.push({
        file,
        line,
        text: code,
        args: mention ? words(rest) : expand(rest, tmp),
        mention,
        literal: !mention && isLiteral(rest),
      });
    }
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const f = /^\s*(```+|~~~+)(.*)$/.exec(l);
    if (f) {
      if (fence === undefined) {
        flushProse();
        fence = f[2]!.trim();
      } else fence = undefined;
      continue;
    }
    if (fence === undefined) {
      if (l.trim() === '') flushProse();
      else prose.push({ text: l, line: i + 1 });
      continue;
    }
    if (!['', 'sh', 'bash', 'shell', 'console'].includes(fence)) continue;
    let cmd = l;
    const start = i + 1;
    while (cmd.endsWith('\\') && i + 1 < lines.length) cmd = `${cmd.slice(0, -1)} ${lines[++i]!}`;
    const launched = LAUNCHER.exec(cmd);
    if (!launched) continue;
    let rest = cmd.slice(launched.index + launched[0].length);
    const redirect = /\s>\s+(\S+)/.exec(rest.split(/\s(?:#|&&|\|\||;|\|)(?:\s|$)/)[0]!);
    rest = rest.split(/\s(?:#|&&|\|\||;|\||>|2>)(?:\s|$)/)[0]!.trim();
    found.push({
      file,
      line: start,
      text: cmd.trim(),
      args: expand(rest, tmp),
      mention: false,
      literal: isLiteral(rest),
      ...(redirect && { stdoutTo: redirect[1]! }),
    });
  }
  flushProse();
  return found;
}

/** Every command line of the docs, in file order, placeholders' paths under `tmp`. */
export const docCommands = (tmp: string): DocCommand[] =>
  docFiles().flatMap((f) => extract(f, readFileSync(join(root, f), 'utf8'), tmp));
