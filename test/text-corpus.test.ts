// The text8 corpus writer in bounded memory (app:text8): the streaming normaliser gives exactly
// normaliseText's output wherever its input breaks (every split point of a sample holding every
// special case, byte chunks of 1..7 across multi-byte UTF-8, a seeded fuzz of markup fragments),
// zip entries streamed in name order, the same split points and hashes as the in-memory split,
// output folders claimed before reading and replaced atomically, and one-line errors that name
// their file.
import assert from 'node:assert/strict';
import { constants } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { zipSync } from 'fflate';
import { loadCorpus, splitText, withAlphabet } from '../src/tasks/text/corpus.js';
import { readSource, writeCorpus } from '../src/tasks/text/corpus-write.js';
import { normaliseText } from '../src/tasks/text/normalise.js';
import { StreamNormaliser } from '../src/tasks/text/normalise-stream.js';
import { openPrefix } from '../src/tasks/text/regex-prefix.js';
import { uniforms } from '../src/util/uniforms.js';
import { sourceAndUserFolder } from './tmp.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'sjd-corpus-'));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every case normalise.ts handles, with CRLF, LF and lone CR line ends and a BOM. */
const RICH = [
  '\uFEFF<doc id="12" url="http://x?curid=12" title="Anarchism">',
  'Anarchism',
  '',
  'Anarchism (from Greek: ἀναρχία) is a "political philosophy" -- founded in 1840!\t\t  tabs',
  'It&amp;s <b>bold</b> text<ref name="a">cited</ref>, see [[Liberty|freedom]] {{cite}}.\r',
  '&amp;lt;tag&amp;gt; &quot;q&quot;&nbsp;x &copy; &#160; & alone; <!-- c --> a<b',
  '[[Image:Pic.jpg|thumb|left|200px|A caption]] [[Category:Greek philosophy|sort]] [[fr:Anarchie]]',
  '[http://example.com/page Example site] [https://x.y] {{Infobox|{{nested}}|x}} {single} }',
  '</doc>',
  '<doc id="25" url="x" title="Autism">',
  'Autism',
  'Café au lait, 3.5 percent 😀 x²  ZÜRICH |Right|thumbnail |12px',
  'lone\rcarriage return <ref>open reference <ref>x</ref>',
  '</doc>',
  '<doc>',
  '</doc>',
  'title-like line after a closing tag 0123456789',
  'trailing   text',
].join('\r\n');

function stream(pieces: string[], limit?: number): string {
  let out = '';
  const n = new StreamNormaliser((t) => {
    out += t;
  }, limit);
  for (const p of pieces) n.push(p);
  n.endDocument();
  return out;
}

const chunks = (s: string, k: number) =>
  Array.from({ length: Math.ceil(s.length / k) }, (_, i) => s.slice(i * k, (i + 1) * k));

/** A seeded generator (mulberry32) for the fuzz. */
const rng = uniforms;

function randomPieces(s: string, next: () => number, max: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    const k = 1 + Math.floor(next() * max);
    out.push(s.slice(i, i + k));
    i += k;
  }
  return out;
}

test('the streaming normaliser equals normaliseText at every split point and piece size', () => {
  const want = normaliseText(RICH);
  // The BOM makes the first line text, not a <doc> line (as readFileSync's string has it): its
  // tag is removed as markup and the title kept.
  assert.ok(
    want.startsWith('anarchism anarchism from greek αναρχια is a political philosophy founded in'),
    want.slice(0, 80),
  );
  for (let i = 0; i <= RICH.length; i++)
    assert.equal(stream([RICH.slice(0, i), RICH.slice(i)]), want, `split at ${i}`);
  for (let k = 1; k <= 12; k++) assert.equal(stream(chunks(RICH, k)), want, `pieces of ${k}`);
  // Lines longer than the hold limit go through the chain too; markup shorter than it is exact.
  const long = `${'word <b>x</b> &amp; [[a|b]] {{t}} &lt;i&gt; 7 '.repeat(40)}\n`;
  for (const k of [1, 3, 1000]) assert.equal(stream(chunks(long, k), 16), normaliseText(long));
});

test('a seeded fuzz of markup fragments: the stream equals normaliseText for random pieces', () => {
  const FRAGMENTS = [
    '<doc id="1">',
    '</doc>',
    '<doc>',
    '<ref name=a>',
    '</ref>',
    '<ref>',
    '<',
    '>',
    '<b>',
    '&amp;',
    '&lt;',
    '&gt;',
    '&quot;',
    '&nbsp;',
    '&',
    ';',
    'amp;',
    'lt;',
    '[[',
    ']]',
    '[',
    ']',
    '|',
    'thumb',
    'Left',
    '12px',
    'px',
    '[[image:',
    '[[Category:',
    'fr:',
    '[http://x.y',
    'https:',
    '{{',
    '}}',
    '{',
    '}',
    'abc',
    'Word',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '\r',
    'é',
    '😀',
    '42',
    'x',
  ];
  const next = rng(7);
  for (let t = 0; t < 3000; t++) {
    let s = '';
    const n = 1 + Math.floor(next() * 40);
    for (let i = 0; i < n; i++) s += FRAGMENTS[Math.floor(next() * FRAGMENTS.length)];
    assert.equal(stream(randomPieces(s, next, 6)), normaliseText(s), JSON.stringify(s));
  }
});

test('a construct open longer than the hold limit is cut the same way for every split', () => {
  const line = `start <unclosed ${'abc '.repeat(30)}> end &${'x'.repeat(40)};\n`;
  const whole = stream([line], 16);
  // The whole-string normalisation deletes the tag; the stream cut it after 16 characters.
  assert.equal(normaliseText(line), 'start end');
  assert.ok(whole.startsWith('start unclosed abc ab'), whole);
  const next = rng(3);
  for (let t = 0; t < 200; t++) assert.equal(stream(randomPieces(line, next, 9), 16), whole);
});

test('openPrefix: a scan position is open while the text could still grow into a match', () => {
  const at = (re: RegExp, s: string) => {
    const { open } = openPrefix(re);
    open.lastIndex = 0;
    return open.test(s);
  };
  assert.ok(at(/<[^>]*>/g, '<ab c'));
  assert.ok(!at(/<[^>]*>/g, '<ab> c'));
  assert.ok(at(/\[https?:[^\] ]*/g, '[http://x.y')); // a match that may yet grow
  assert.ok(!at(/\[https?:[^\] ]*/g, '[http://x.y z'));
  assert.ok(at(/\[\[image:[^[\]]*\|/gi, '[[Image:a|b'));
  assert.ok(!at(/\[\[image:[^[\]]*\|/gi, '[[Image:a|b]'));
  assert.ok(at(/\|(thumb|left|right|\d+px)/gi, '|12'));
  assert.ok(!at(/\|(thumb|left|right|\d+px)/gi, '|12x'));
  assert.ok(at(/&amp;/g, '&am'));
  assert.ok(!at(/&amp;/g, '&ax'));
  for (const re of [/^a/, /a\b/, /(a)*/, /a{2}/, /(?=a)b/, /a*?b/])
    assert.throws(() => openPrefix(re), /openPrefix: .* uses syntax beyond/);
});

/**
 * The whole-string reading of a list of files (marks kept, then the alphabet auto chooses), the
 * oracle for the streaming writer.
 */
const inMemory = (texts: string[]) =>
  withAlphabet(texts.map((t) => normaliseText(t, 'keep')).join(' ')).text;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function assertCorpus(out: string, text: string) {
  const want = splitText(text);
  const meta = JSON.parse(readFileSync(join(out, 'corpus.json'), 'utf8'));
  for (const s of ['train', 'valid', 'test'] as const) {
    assert.equal(readFileSync(join(out, `${s}.txt`), 'latin1'), want[s], s);
    assert.deepEqual(meta[s], { chars: want[s].length, sha256: sha256(want[s]) }, s);
  }
  assert.deepEqual(readdirSync(out).sort(), ['corpus.json', 'test.txt', 'train.txt', 'valid.txt']);
}

test('files are read in byte chunks of any size: multi-byte UTF-8, invalid bytes and a BOM', () => {
  const dir = tmp();
  const bytes = Buffer.concat([
    Buffer.from(RICH.repeat(4)),
    Buffer.from([0xff, 0x41, 0xe2, 0x82, 0x20, 0x62, 0xf0, 0x9f, 0x98]), // invalid and cut
    Buffer.from('\nthe end'),
  ]);
  const src = join(dir, 'wiki.txt');
  writeFileSync(src, bytes);
  const want = withAlphabet(normaliseText(bytes.toString('utf8'), 'keep')).text;
  for (let k = 1; k <= 7; k++) assert.equal(readSource(src, { chunkBytes: k }), want, `${k}`);
  // A text8 file: spaces collapsed and trimmed, as before.
  const text8 = `  ${'anarchism originated as a  term '.repeat(40)}`;
  writeFileSync(join(dir, 'text8'), text8);
  assert.equal(readSource(join(dir, 'text8'), { chunkBytes: 5 }), text8.trim().replace(/ +/g, ' '));
});

test('writeCorpus splits a file, a folder and a zip at the same points as the in-memory split', () => {
  const dir = tmp();
  const a = `<doc id="1">\nTitle A\n${'First part, 12 words. '.repeat(60)}\n</doc>\n`;
  const b = `${'Second FILE &amp; more text; '.repeat(50)}`;
  const c = `${'third: ÆØÅ 😀 digits 345 '.repeat(40)}\r\n`;
  writeFileSync(join(dir, 'one.txt'), a);
  assert.ok(writeCorpus(join(dir, 'one.txt'), join(dir, 'c1'), { chunkBytes: 3 }));
  assertCorpus(join(dir, 'c1'), inMemory([a]));
  const folder = join(dir, 'wiki');
  mkdirSync(join(folder, 'AB'), { recursive: true });
  writeFileSync(join(folder, 'AB', 'wiki_01'), c);
  writeFileSync(join(folder, 'AB', 'wiki_00'), b);
  writeFileSync(join(folder, 'AA'), a); // a file sorts before the folder AB
  writeFileSync(join(folder, 'README.md'), 'not corpus text');
  writeFileSync(join(folder, '.hidden'), 'not corpus text');
  writeCorpus(folder, join(dir, 'c2'), { chunkBytes: 5 });
  assertCorpus(join(dir, 'c2'), inMemory([a, b, c]));
  // A corpus folder inside the source folder is not read as input when it is rewritten.
  writeCorpus(folder, join(folder, 'corpus'));
  writeCorpus(folder, join(folder, 'corpus'), { chunkBytes: 7 });
  assertCorpus(join(folder, 'corpus'), inMemory([a, b, c]));
  // A zip whose entries are not in name order, with a folder entry, an empty and a stored one.
  const enc = (s: string) => new TextEncoder().encode(s);
  const zip = join(dir, 'data.zip');
  writeFileSync(
    zip,
    zipSync({
      'z.txt': enc(c),
      d: {},
      'm.txt': [enc(b), { level: 0 }],
      'e.txt': enc(''),
      'a.txt': enc(a),
    }),
  );
  writeCorpus(zip, join(dir, 'c3'), { chunkBytes: 11 });
  assertCorpus(join(dir, 'c3'), inMemory([a, '', b, c].filter((t) => t)));
  // In name order already: one pass.
  writeFileSync(zip, zipSync({ 'a.txt': enc(a), 'b.txt': enc(b) }));
  assert.equal(readSource(zip, { chunkBytes: 2 }), inMemory([a, b]));
});

test('writeCorpus claims --out first: a user folder needs force, a corpus folder is replaced', () => {
  const dir = tmp();
  const { src, out } = sourceAndUserFolder(dir, 'Hello, World 7! '.repeat(200));
  assert.throws(
    () => writeCorpus(src, out),
    /out is not empty and is not a corpus folder written by sjd; .*--force/,
  );
  assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'mine');
  writeCorpus(src, out, { force: true });
  assert.ok(!existsSync(join(out, 'notes.txt')));
  assert.equal(loadCorpus(out).train.slice(0, 24), 'hello world seven hello ');
  // sjd's own folder is replaced without --force.
  writeFileSync(src, 'Second SOURCE. '.repeat(200));
  writeCorpus(src, out);
  assert.equal(loadCorpus(out).train.slice(0, 14), 'second source ');
  assert.deepEqual(readdirSync(dir).sort(), ['out', 'src.txt']);
  // A file in the way is refused; the claim comes before the (missing) source is looked at.
  writeFileSync(join(dir, 'file'), 'x');
  assert.throws(
    () => writeCorpus(join(dir, 'missing'), join(dir, 'file')),
    /is a file, not a folder/,
  );
  if (existsSync('/proc/self'))
    assert.throws(
      () => writeCorpus(join(dir, 'missing'), '/proc/x'),
      /^Error: cannot write \/proc\/x: \/proc does not accept new files$/,
    );
});

test('a failing source leaves nothing beside --out and the old corpus as it was', () => {
  const dir = tmp();
  const src = join(dir, 'src.txt');
  writeFileSync(src, 'Hello, World 7! '.repeat(200));
  const out = join(dir, 'out');
  writeCorpus(src, out);
  const before = readFileSync(join(out, 'train.txt'), 'latin1');
  writeFileSync(join(dir, 'short.txt'), 'Too short.');
  writeFileSync(
    join(dir, 'bad.zip'),
    Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64, 7)]),
  );
  const listing = readdirSync(dir).sort();
  assert.throws(
    () => writeCorpus(join(dir, 'short.txt'), out),
    /only 9 characters after normalisation/,
  );
  assert.throws(() => writeCorpus(join(dir, 'bad.zip'), out), /bad\.zip: not a readable zip file/);
  assert.deepEqual(readdirSync(dir).sort(), listing);
  assert.equal(readFileSync(join(out, 'train.txt'), 'latin1'), before);
});

test('errors name their object: a missing path, an empty folder, an unreadable file, bad zips', () => {
  const dir = tmp();
  const one = (f: () => unknown, re: RegExp) =>
    assert.throws(f, (e: Error) => re.test(e.message) && !e.message.includes('\n'));
  one(() => readSource(join(dir, 'missing')), /missing: no such file or folder$/);
  mkdirSync(join(dir, 'empty', 'sub'), { recursive: true });
  writeFileSync(join(dir, 'empty', 'README.md'), 'docs only');
  one(() => readSource(join(dir, 'empty')), /empty: no text files in this folder$/);
  if (process.getuid?.() === 0) {
    if (existsSync('/proc/self/mem'))
      one(() => readSource('/proc/self/mem'), /^\/proc\/self\/mem: cannot read \(EIO\)$/);
  } else {
    writeFileSync(join(dir, 'locked.txt'), 'secret');
    chmodSync(join(dir, 'locked.txt'), 0);
    one(
      () => readSource(join(dir, 'locked.txt')),
      /locked\.txt: cannot read \(permission denied\)$/,
    );
  }
  writeFileSync(join(dir, 'not.zip'), 'not a zip at all');
  one(
    () => readSource(join(dir, 'not.zip')),
    /not\.zip: not a readable zip file \(no zip signature\)/,
  );
  const good = zipSync({ text8: new TextEncoder().encode('the quick brown fox '.repeat(500)) });
  writeFileSync(join(dir, 'cut.zip'), good.subarray(0, good.length >> 1));
  one(() => readSource(join(dir, 'cut.zip')), /cut\.zip: not a readable zip file/);
  const broken = Uint8Array.from(good);
  broken.fill(0xff, 40, 60); // inside the deflate stream
  writeFileSync(join(dir, 'broken.zip'), broken);
  one(() => readSource(join(dir, 'broken.zip')), /broken\.zip: not a readable zip file/);
  writeFileSync(join(dir, 'empty.zip'), zipSync({}));
  one(() => readSource(join(dir, 'empty.zip')), /empty\.zip: the zip file is empty$/);
  writeFileSync(join(dir, 'short.txt'), '<b>x</b> 1');
  one(
    () => readSource(join(dir, 'short.txt')),
    /short\.txt: only 5 characters after normalisation/,
  );
});

/** `zip` with its central directory's expanded size of its first entry set to `size`. */
function withListedSize(zip: Uint8Array, size: number): Buffer {
  const b = Buffer.from(zip);
  const central = b.indexOf('PK\x01\x02', 0, 'latin1');
  b.writeUInt32LE(size, central + 24);
  return b;
}

test('a zip is bounded by its directory: a bomb refused before inflating, a lie caught, progress in expanded bytes', () => {
  const dir = tmp();
  const one = (f: () => unknown, re: RegExp) =>
    assert.throws(f, (e: Error) => re.test(e.message) && !e.message.includes('\n'));
  const words = new TextEncoder().encode(
    'the quick brown fox jumps over the lazy dog '.repeat(400),
  );
  const zip = zipSync({ 'a.txt': words, 'b.txt': words });
  const reports: [number, number, string][] = [];
  writeFileSync(join(dir, 'good.zip'), zip);
  readSource(join(dir, 'good.zip'), { chunkBytes: 64, progress: (...r) => reports.push(r) });
  assert.ok(reports.length > 2 && reports.every((r) => r[2] === 'expanding'));
  assert.deepEqual(reports.at(-1), [2 * words.length, 2 * words.length, 'expanding']);
  assert.ok(reports.every((r, i) => i === 0 || r[0] >= reports[i - 1]![0]));
  // 3 GiB listed for a zip of a few hundred bytes: past 100 times its size and 64 MiB
  writeFileSync(join(dir, 'bomb.zip'), withListedSize(zip, 3 * 2 ** 30));
  one(
    () => readSource(join(dir, 'bomb.zip')),
    /^\S*bomb\.zip: expands to 3,072 MiB, more than 100 times its 1 MiB \(a zip bomb\?\); .* unzip it yourself to use it$/,
  );
  // a directory that understates an entry is caught as the entry inflates past it
  writeFileSync(join(dir, 'lie.zip'), withListedSize(zip, 100));
  one(
    () => readSource(join(dir, 'lie.zip')),
    /lie\.zip: not a readable zip file \(entry "a\.txt" expands past the size its directory lists\)$/,
  );
});

test('loadCorpus refuses a split too large for a JS string, naming the file and its size', () => {
  const dir = tmp();
  const train = join(dir, 'train.txt');
  writeFileSync(train, '');
  truncateSync(train, constants.MAX_STRING_LENGTH + 1); // sparse: no disk used
  assert.throws(
    () => loadCorpus(dir),
    (e: Error) =>
      e.message ===
      `${train}: ${constants.MAX_STRING_LENGTH + 1} bytes, more than one JS string holds (${constants.MAX_STRING_LENGTH} characters); make a smaller corpus`,
  );
});

test('sjd data text8 refuses a user folder without --force and writes with it', () => {
  const dir = tmp();
  const src = join(dir, 'src.txt');
  writeFileSync(src, 'Hello, World 7! '.repeat(200));
  const out = join(dir, 'out');
  mkdirSync(out);
  writeFileSync(join(out, 'notes.txt'), 'mine');
  const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
  const sjd = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'data', 'text8', '--from', src, '--out', out, ...args], {
      encoding: 'utf8',
    });
  const refused = sjd();
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /^sjd: .*out is not empty .*--force to replace it\n$/);
  const r = sjd('--force');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /wrote .*out: train 3239, valid 180, test 180 characters/);
});
