// The documentation's links, both ways. Every relative link and image of README.md,
// docs/**/*.md and training/README.md (outside code) names a file or folder that exists, and a
// '#anchor' names a heading of its target (GitHub's heading ids: lower case, punctuation but '-'
// and '_' dropped, spaces to '-', a repeated heading numbered -1, -2, ...). Every file under docs/
// is reached from README.md by following those links (no orphan), and no two files under docs/
// are byte-identical (a copy is replaced by a link to the kept file). README.md and the docs
// name no issue numbers ("issue 42", "#59", "(#61)"): they say what a thing is; git keeps the
// history.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(new URL('../..', import.meta.url).pathname);
const docs = join(root, 'docs');

/** Every file under dir, recursively (absolute paths, sorted). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const f = join(dir, e);
    if (statSync(f).isDirectory()) out.push(...filesUnder(f));
    else out.push(f);
  }
  return out;
}

/** The Markdown files whose links are checked. */
const markdown = (): string[] => [
  join(root, 'README.md'),
  ...filesUnder(docs).filter((f) => f.endsWith('.md')),
  join(root, 'training', 'README.md'),
];

const rel = (f: string) => relative(root, f);

/** A Markdown file's lines outside fenced code blocks, each with its 1-based number. */
function prose(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((l, i) => {
    const f = /^\s*(```+|~~~+)/.exec(l);
    if (f) {
      if (fence === undefined) fence = f[1]![0]!;
      else if (f[1]![0] === fence) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text: l });
  });
  return out;
}

/** Inline code spans removed (a link shown as code is not a link). */
const withoutCode = (s: string) => s.replace(/(`+)[\s\S]*?\1/g, '');

interface Link {
  from: string; // the Markdown file
  line: number;
  target: string; // as written
}

/** The relative links and images of a Markdown file: `[text](target)`, `![alt](target)`. */
function linksOf(file: string): Link[] {
  const found: Link[] = [];
  for (const { line, text } of prose(readFileSync(file, 'utf8')))
    for (const m of withoutCode(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      found.push({ from: file, line, target });
    }
  return found;
}

/** GitHub's id for a heading's text. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/`/g, '')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a Markdown file's headings give. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of prose(readFileSync(file, 'utf8'))) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Where a link points: its file (absolute) and anchor. */
function resolveLink(l: Link): { path: string; anchor?: string } {
  const hash = l.target.indexOf('#');
  const path = hash < 0 ? l.target : l.target.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(l.target.slice(hash + 1));
  return { path: path === '' ? l.from : resolve(dirname(l.from), decodeURI(path)), anchor };
}

test('every relative link and image of the docs names an existing file, and its anchor a heading', () => {
  const files = markdown();
  assert.ok(files.length >= 15, files.map(rel).join(', '));
  const anchors = new Map<string, Set<string>>();
  const broken: string[] = [];
  let checked = 0;
  for (const f of files)
    for (const l of linksOf(f)) {
      checked++;
      const { path, anchor } = resolveLink(l);
      const where = `${rel(l.from)}:${l.line}: ${l.target}`;
      if (!existsSync(path)) {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor === undefined || !path.endsWith('.md')) continue;
      if (!anchors.has(path)) anchors.set(path, anchorsOf(path));
      if (!anchors.get(path)!.has(anchor)) broken.push(`${where} (no heading #${anchor})`);
    }
  assert.ok(checked >= 100, `only ${checked} links found`);
  assert.deepEqual(broken, []);
});

test("the heading ids follow GitHub's", () => {
  assert.equal(
    slug('Quick start (fresh Debian 12 machine, as root, Node >= 20.20.2)'),
    'quick-start-fresh-debian-12-machine-as-root-node--20202',
  );
  assert.equal(
    slug("DDPM and Bit Diffusion (`tab:cifar10_fid`'s continuous baselines)"),
    'ddpm-and-bit-diffusion-tabcifar10_fids-continuous-baselines',
  );
  assert.equal(slug('5b. Scale'), '5b-scale');
});

test('every file under docs/ is reached by links from README.md (no orphan)', () => {
  const reached = new Set<string>([join(root, 'README.md')]);
  const queue = [join(root, 'README.md')];
  while (queue.length > 0) {
    const f = queue.shift()!;
    for (const l of linksOf(f)) {
      const { path } = resolveLink(l);
      if (reached.has(path) || !existsSync(path) || statSync(path).isDirectory()) continue;
      reached.add(path);
      if (path.endsWith('.md')) queue.push(path);
    }
  }
  const orphans = filesUnder(docs)
    .filter((f) => !reached.has(f))
    .map(rel);
  assert.deepEqual(orphans, []);
});

test('no two files under docs/ are byte-identical', () => {
  const byHash = new Map<string, string[]>();
  for (const f of filesUnder(docs)) {
    const h = createHash('sha256').update(readFileSync(f)).digest('hex');
    byHash.set(h, [...(byHash.get(h) ?? []), rel(f)]);
  }
  const copies = [...byHash.values()].filter((fs) => fs.length > 1);
  assert.deepEqual(copies, []);
});

test('README.md and the docs name no issue numbers', () => {
  const ISSUE = /\bissues?\s+#?\d+|\(#\d+\)|(?:^|[\s,;])#\d+\b/gi;
  const found: string[] = [];
  for (const f of markdown().filter((f) => !f.startsWith(join(root, 'training'))))
    readFileSync(f, 'utf8')
      .split('\n')
      .forEach((l, i) => {
        for (const m of l.matchAll(ISSUE)) found.push(`${rel(f)}:${i + 1}: ${m[0].trim()}`);
      });
  assert.deepEqual(found, []);
});

test('the README is a front door: at most 150 lines', () => {
  const lines = readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length;
  assert.ok(lines <= 150, `README.md has ${lines} lines`);
});
