// The text8 corpus pipeline (app:text8): wikifil normalisation on hand-made inputs, text8 and
// text8.zip taken as they are, folders read in name order, the contiguous 90/5/5 split, atomic
// corpus folders, encoding, the word metrics on hand-computed examples, and the held-out
// reference windows.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { zipSync } from 'fflate';
import {
  decode,
  embeddedText,
  encode,
  loadCorpus,
  splitText,
  withAlphabet,
} from '../src/tasks/text/corpus.js';
import { readSource, writeCorpus } from '../src/tasks/text/corpus-write.js';
import {
  dictionary,
  heldOutWindows,
  TextScorer,
  uniqueWordFraction,
  validWordFraction,
  words,
} from '../src/tasks/text/metrics.js';
import { isText8, normaliseText } from '../src/tasks/text/normalise.js';
import { tempDir } from './tmp.js';

const tmp = () => tempDir('sjd-text-');

test('normalisation follows wikifil: doc lines and titles dropped, digits spelled, the rest folded', () => {
  const raw = [
    '<doc id="12" url="http://en.wikipedia.org/wiki?curid=12" title="Anarchism">',
    'Anarchism',
    '',
    'Anarchism (from Greek: ἀναρχία) is a "political philosophy" -- founded in 1840!',
    'It&amp;s <b>bold</b> text<ref name="a">cited</ref>, see [[Liberty|freedom]] {{cite}}.',
    '</doc>',
    '<doc id="25" url="x" title="Autism">',
    'Autism',
    'Café au lait, 3.5 percent',
    '</doc>',
  ].join('\n');
  // letters of every script are kept, lowercased, their accents stripped ('Café' is 'cafe')
  assert.equal(
    normaliseText(raw),
    'anarchism from greek αναρχια is a political philosophy founded in one eight four zero ' +
      'it s bold text see freedom cafe au lait three five percent',
  );
  // text8's alphabet then makes the Greek word a space
  assert.equal(
    withAlphabet(normaliseText(raw), 'text8').text,
    'anarchism from greek is a political philosophy founded in one eight four zero ' +
      'it s bold text see freedom cafe au lait three five percent',
  );
  assert.equal(
    normaliseText('Plain TEXT, no tags.\r\nSecond line 42'),
    'plain text no tags second line four two',
  );
});

test('isText8 accepts one line of a-z and spaces only', () => {
  assert.ok(isText8(' anarchism originated as a term\n'));
  assert.ok(!isText8('Anarchism'));
  assert.ok(!isText8('two\nlines'));
  assert.ok(!isText8('   '));
});

test('a text8 file and a text8.zip are read as they are; a folder in name order', () => {
  const dir = tmp();
  const text8 = ` ${'the quick brown fox jumps over the lazy dog '.repeat(40).trim()}`;
  writeFileSync(join(dir, 'text8'), text8);
  assert.equal(readSource(join(dir, 'text8')), text8.trim());
  writeFileSync(join(dir, 'text8.zip'), zipSync({ text8: new TextEncoder().encode(text8) }));
  assert.equal(readSource(join(dir, 'text8.zip')), text8.trim());
  const folder = join(dir, 'wiki');
  mkdirSync(join(folder, 'AA'), { recursive: true });
  writeFileSync(
    join(folder, 'AA', 'wiki_01'),
    `<doc id="2">\nTitle B\n${'Second part. '.repeat(50)}\n</doc>\n`,
  );
  writeFileSync(
    join(folder, 'AA', 'wiki_00'),
    `<doc id="1">\nTitle A\n${'First part. '.repeat(50)}\n</doc>\n`,
  );
  writeFileSync(join(folder, 'README.md'), 'not corpus text');
  const s = readSource(folder);
  assert.ok(s.startsWith('first part first part'));
  assert.ok(s.endsWith('second part second part'));
  assert.ok(!s.includes('title') && !s.includes('readme'));
  assert.throws(() => readSource(join(dir, 'missing')), /no such file or folder/);
  writeFileSync(join(dir, 'short.txt'), 'too short');
  assert.throws(() => readSource(join(dir, 'short.txt')), /only 9 characters/);
  writeFileSync(join(dir, 'bad.zip'), 'not a zip');
  assert.throws(() => readSource(join(dir, 'bad.zip')), /not a readable zip/);
});

test('the split is contiguous 90/5/5 and loses nothing', () => {
  const text = Array.from({ length: 1000 }, (_, i) => 'abcdefghij'[i % 10]).join('');
  const s = splitText(text);
  assert.deepEqual([s.train.length, s.valid.length, s.test.length], [900, 50, 50]);
  assert.equal(s.train + s.valid + s.test, text);
});

test('writeCorpus writes the three splits and corpus.json; loadCorpus reads them back', () => {
  const dir = tmp();
  const src = join(dir, 'src.txt');
  writeFileSync(src, 'Hello, World 7! '.repeat(200));
  const out = join(dir, 'corpus');
  const meta = writeCorpus(src, out) as Record<string, { chars: number; sha256: string }>;
  const c = loadCorpus(out);
  const total = c.train.length + c.valid.length + c.test.length;
  assert.equal(meta.train!.chars, c.train.length);
  assert.equal(c.train.slice(0, 24), 'hello world seven hello ');
  assert.equal(c.train.length, Math.floor(total * 0.9));
  assert.deepEqual(readdirSync(dir).sort(), ['corpus', 'src.txt']); // nothing temporary left
  assert.equal(JSON.parse(readFileSync(join(out, 'corpus.json'), 'utf8')).format, 'sjd-text8');
  assert.throws(() => loadCorpus(dir), /no train\.txt/);
});

test('encode and decode are inverse on a-z and space; other characters are refused', () => {
  const s = 'the cat sat on the mat z';
  const t = encode(s);
  assert.equal(t[0], 19);
  assert.equal(t[3], 26);
  assert.equal(decode(t), s);
  assert.throws(() => encode('no Caps'), /'C' at position 4 is not in the alphabet/);
  assert.throws(() => decode([27]), /outside 0\.\.26/);
});

test('the embedded corpus is State of the Union prose, normalised, millions of characters', () => {
  const text = embeddedText();
  assert.ok(text.length > 5_000_000, `${text.length}`);
  assert.ok(isText8(text));
  assert.ok(text.startsWith('fellow citizens of the senate and house of representatives'));
});

test('word metrics on hand-computed examples', () => {
  assert.deepEqual(words('  the  house  '), ['the', 'house']);
  const dict = dictionary('house horse mouse houses a bb', 5);
  assert.deepEqual([...dict].sort(), ['horse', 'house', 'houses', 'mouse']);
  // sample 1: long words [house, house, blorp, mouse] -> |{house, mouse}| / 4 = 0.5
  // sample 2: long words [horse] -> 1; sample 3: no long word -> 0
  const samples = ['the house house blorp mouse', 'a horse', 'a b c'];
  assert.equal(validWordFraction(samples, dict, 5), (0.5 + 1 + 0) / 3);
  // unique: 4/5, 2/2, 3/3
  assert.equal(uniqueWordFraction(samples), (4 / 5 + 1 + 1) / 3);
  assert.equal(uniqueWordFraction(['', 'a a a a']), (0 + 0.25) / 2);
  const s = new TextScorer('house horses').score(['horses house horses']);
  assert.equal(s.valid_words5, 2 / 3);
  assert.equal(s.valid_words6, 1 / 2);
});

test('held-out reference windows are evenly spaced, of the sample length, first and last flush', () => {
  const text = 'abcdefghijklmnopqrstuvwxyz'; // 26 characters
  // stride floor((26 - 4) / 3) = 7: windows at 0, 7, 14, 21
  assert.deepEqual(heldOutWindows(text, 4, 4), ['abcd', 'hijk', 'opqr', 'vwxy']);
  assert.deepEqual(heldOutWindows(text, 26, 3), [text, text, text]);
  assert.deepEqual(heldOutWindows(text, 5, 1), ['abcde']);
  assert.throws(
    () => heldOutWindows(text, 27, 2),
    /26 held-out characters, fewer than one window of 27/,
  );
});
