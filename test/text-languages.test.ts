// Text in any language: letters folded by NFKD with their accents stripped (hand-computed
// examples), what normalisation drops counted, the alphabet chosen from the letters (text8's for
// German, the corpus's own for Greek), corpus folders split by characters whatever their bytes,
// read back with their alphabet; the held-out ELBO on an exact oracle (a uniform classifier under
// the masked process scores log2 K bits a token); and a German and a Greek paragraph end to end
// through the CLI (data, train with --length, sample, a prompt, eval with the ELBO line).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Network } from '../src/model/network.js';
import { makeProcess } from '../src/process/index.js';
import { TEXT8 } from '../src/tasks/common/alphabet.js';
import { encode, loadCorpus, splitText } from '../src/tasks/text/corpus.js';
import { readSource, writeCorpus } from '../src/tasks/text/corpus-write.js';
import { emptyTally, foldChars, normaliseText } from '../src/tasks/text/normalise.js';
import { CharTally, chooseAlphabet, restrictText } from '../src/tasks/text/text-alphabet.js';
import { tensor, zeros } from '../src/torch/index.js';
import { elboUnavailable, heldOutElboBits } from '../src/train/held-out-elbo.js';
import { cliIn } from './sjd-cli.js';
import { tempDir } from './tmp.js';

const GERMAN =
  'Die Straße führt über die Brücke zum großen Schloss. Im Frühling blühen die Bäume, und ' +
  'die Kinder spielen fröhlich im Garten. Österreich und die Schweiz grenzen an Deutschland; ' +
  'Œuvres complètes, naïve Ærø. ';
const GREEK =
  'Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης. Η πρωτεύουσα και μεγαλύτερη πόλη της ' +
  'είναι η Αθήνα. Η χώρα έχει μακρά ιστορία και πλούσιο πολιτισμό, με φιλοσόφους, ποιητές ' +
  'και επιστήμονες που επηρέασαν τον κόσμο. ';

const HINDI =
  'मैं हर सुबह एक किताब पढ़ता हूँ। मेरी बहन संगीत सीखती है और हम शाम को बगीचे में टहलते हैं। ' +
  'भारत की राजधानी नई दिल्ली है, जहाँ बहुत से लोग रहते हैं। ';
const JAPANESE =
  'がくせいです。わたしはまいにち にほんごを べんきょうします。 ' +
  'ともだちと こうえんで あそびました。 ざっしを よみながら コーヒーを のみます。 ';

/** The letters and marks of a paragraph as a corpus of its own keeps them: lowercase, NFKC. */
const lettersOf = (s: string) =>
  new Set(Array.from(s.toLowerCase().normalize('NFKC')).filter((c) => /[\p{L}\p{M}]/u.test(c)));

test('text in any language keeps its letters whole: Hindi vowel signs, Japanese voiced kana, German umlauts, Greek accents', () => {
  const dir = tempDir('sjd-any-language-');
  for (const [name, paragraph, auto] of [
    ['hindi', HINDI, 'own'],
    ['japanese', JAPANESE, 'own'],
    ['greek', GREEK, 'own'],
    ['german', GERMAN, 'text8'],
  ] as const) {
    // decomposed (NFD), read in 5-byte chunks: a mark split from its letter composes again
    writeFileSync(join(dir, `${name}.txt`), paragraph.normalize('NFD').repeat(20));
    const want = lettersOf(paragraph);
    for (const mode of ['own', 'auto'] as const) {
      const out = join(dir, `${name}-${mode}`);
      const meta = writeCorpus(join(dir, `${name}.txt`), out, {
        alphabet: mode,
        chunkBytes: 5,
      }) as {
        alphabet: string;
        dropped: { accents: number; letters: { total: number } };
      };
      const c = loadCorpus(out);
      if (mode === 'own' || auto === 'own') {
        // no letter or mark lost: the alphabet is the paragraph's, and its words are in the text
        assert.deepEqual(new Set(c.alphabet!.symbols.filter((x) => x !== ' ')), want, name);
        assert.deepEqual([meta.dropped.accents, meta.dropped.letters.total], [0, 0], name);
        const words = paragraph
          .toLowerCase()
          .normalize('NFKC')
          .split(/[^\p{L}\p{M}]+/u);
        const text = `${c.train} ${c.valid} ${c.test}`;
        for (const w of words.filter((x) => x.length > 1).slice(0, 8))
          assert.ok(text.includes(w), `${name}: '${w}'`);
      } else {
        // German under auto: text8's letters, the umlauts stripped ('ä' 'a', 'ß' 'ss'), counted
        assert.equal(c.alphabet!.symbols.join(''), TEXT8.symbols.join(''));
        assert.ok(c.train.includes('die strasse fuhrt uber die brucke'), c.train.slice(0, 80));
        assert.ok(meta.dropped.accents >= 20 * 8, `${meta.dropped.accents}`);
      }
    }
  }
  // the marks that make the words: Hindi's vowel signs, the dakuten of が and ざ (NFKC composes them)
  const hindi = loadCorpus(join(dir, 'hindi-auto'));
  for (const c of ['ै', 'ं', 'ू', 'ि', 'ी']) assert.ok(hindi.alphabet!.symbols.includes(c), c);
  const japanese = loadCorpus(join(dir, 'japanese-auto'));
  for (const c of ['が', 'ざ', 'で', 'べ']) assert.ok(japanese.alphabet!.symbols.includes(c), c);
  assert.ok(
    japanese.train.includes('がくせいてす') === false && japanese.train.includes('がくせいです'),
  );
});

const tallied = (s: string) => {
  const t = new CharTally();
  t.add(s);
  return t;
};

test('letters fold by NFKD: accents stripped, NFKD-whole Latin letters spelled, other scripts kept', () => {
  const tally = emptyTally();
  assert.equal(foldChars('Größe, naïve!', tally), 'grosse naive ');
  assert.equal(tally.accents, 2); // the diaereses of ö and ï (ß is spelled, not decomposed)
  assert.deepEqual(
    [...tally.other],
    [
      [',', 1],
      ['!', 1],
    ],
  );
  assert.equal(foldChars('Œuvre Ærø ﬁn ＡＢ 4²'), 'oeuvre aero fin ab four two ');
  assert.equal(normaliseText('Ελλάδα — Москва, 東京'), 'ελλαδα москва 東京');
  // ASCII takes wikifil's path unchanged
  assert.equal(normaliseText('Hello, World 42'), 'hello world four two');
});

test('the alphabet: text8 under 1% of letters outside a-z (those dropped, counted), else the corpus own', () => {
  const english = `${'the quick brown fox '.repeat(40)}жж`;
  const a = chooseAlphabet(tallied(english), 'auto');
  assert.equal(a.alphabet, TEXT8);
  assert.deepEqual(a.dropped, { total: 2, top: [['ж', 2]] });
  assert.equal(restrictText('ab жж cd ж', a.alphabet), 'ab cd');
  assert.equal(restrictText('жab', a.alphabet), 'ab');

  const greek = normaliseText(GREEK);
  const g = chooseAlphabet(tallied(greek), 'auto');
  assert.equal(g.dropped.total, 0);
  const symbols = g.alphabet.symbols;
  assert.equal(symbols.at(-1), ' ');
  assert.deepEqual(symbols.slice(0, -1), [...new Set(greek.replace(/ /g, ''))].sort());
  assert.ok(symbols.includes('ς') && symbols.includes('α') && !symbols.includes('ά'));
  // forced either way
  assert.equal(chooseAlphabet(tallied(greek), 'text8').alphabet, TEXT8);
  assert.deepEqual(chooseAlphabet(tallied('abc cab'), 'own').alphabet.symbols, [
    'a',
    'b',
    'c',
    ' ',
  ]);
});

test('a Greek corpus folder: its own alphabet, split by characters, equal to the text in memory', () => {
  const dir = tempDir('sjd-greek-');
  writeFileSync(join(dir, 'greek.txt'), GREEK.repeat(6));
  const meta = writeCorpus(join(dir, 'greek.txt'), join(dir, 'corpus'), { chunkBytes: 7 }) as {
    alphabet: string;
    dropped: { accents: number; characters: { total: number } };
  } & Record<'train' | 'valid' | 'test', { chars: number }>;
  const text = readSource(join(dir, 'greek.txt'));
  const want = splitText(text); // BMP letters: code units are characters
  const c = loadCorpus(join(dir, 'corpus'));
  assert.equal(c.train, want.train);
  assert.equal(c.valid, want.valid);
  assert.equal(c.test, want.test);
  assert.equal(meta.train.chars + meta.valid.chars + meta.test.chars, text.length);
  assert.deepEqual(c.alphabet?.symbols, Array.from(meta.alphabet));
  assert.equal(meta.dropped.accents, 0); // its own alphabet keeps the accents
  assert.ok(meta.alphabet.includes('ά') && meta.alphabet.includes('α'), meta.alphabet);
  assert.equal(meta.dropped.characters.total, 6 * 5); // 3 full stops and 2 commas a paragraph
  // the tokens round-trip through the corpus's alphabet
  const ids = encode(c.valid, c.alphabet);
  assert.equal(Array.from(ids, (t) => c.alphabet!.symbols[t]).join(''), c.valid);
});

test('the held-out ELBO: a uniform classifier under the masked process scores log2 K bits a token', () => {
  const K = 5;
  const proc = makeProcess('masked', { length: 32 });
  const uniform = {
    anchors: { count: K, forward: () => zeros([K, 4]) },
    forward: (y: { shape: number[] }) => zeros([y.shape[0]!, y.shape[1]!, K]),
  } as unknown as Network;
  const x0 = tensor(
    Array.from({ length: 64 * 32 }, (_, i) => (i * 7) % K),
    [64, 32],
    'int64',
  );
  const bits = heldOutElboBits(uniform, proc, x0, { draws: 8 });
  // E[L_CE] = log K exactly; the Monte Carlo estimate over 8 x 2,048 sites within 3%
  assert.ok(Math.abs(bits / Math.log2(K) - 1) < 0.03, `${bits} vs ${Math.log2(K)}`);
  // padding: the same bits shared over half the positions doubles the figure a token
  const half = heldOutElboBits(uniform, proc, x0, { draws: 8, tokens: 32 * 32 });
  assert.ok(Math.abs(half / bits - 2) < 1e-9);
  assert.equal(elboUnavailable(makeProcess('hybrid', { length: 8 })), undefined);
  assert.match(elboUnavailable(makeProcess('continuous', { length: 8 })) ?? '', /continuous/);
  assert.match(
    elboUnavailable(makeProcess('sjd', { length: 8, eta: 0.5 })) ?? '',
    /eta = 1.*eta = 0\.5/,
  );
});

test('German and Greek through the CLI: data, train --length, sample, a prompt, eval with the ELBO', () => {
  const dir = tempDir('sjd-languages-cli-');
  const { run: sjd, ok } = cliIn(dir);
  writeFileSync(join(dir, 'de.txt'), GERMAN.repeat(8));
  writeFileSync(join(dir, 'el.txt'), GREEK.repeat(12));
  const de = ok('data', 'text', '--from', 'de.txt', '--out', 'de');
  assert.match(de, /alphabet a-z and space/);
  assert.match(de, /normalisation: \d+ accents stripped; \d+ other characters made spaces/);
  const el = ok('data', 'text', '--from', 'el.txt', '--out', 'el');
  const symbols = Array.from(
    JSON.parse(readFileSync(join(dir, 'el/corpus.json'), 'utf8')).alphabet,
  );
  assert.match(el, new RegExp(`alphabet ${symbols.length} symbols`));

  const trainArgs = ['--size', 'tiny', '--process', 'masked', '--steps', '20', '--length', '32'];
  ok('train', 'text', '--data', 'de', ...trainArgs, '--out', 'de-run');
  ok('train', 'text', '--data', 'el', ...trainArgs, '--out', 'el-run');
  const config = JSON.parse(readFileSync(join(dir, 'el-run/config.json'), 'utf8'));
  assert.equal(config.length, 32);
  // a resume may repeat the run's own --length, not change it
  ok('train', 'text', '--resume', '--out', 'el-run', '--length', '32', '--steps', '21');
  const other = sjd('train', 'text', '--resume', '--out', 'el-run', '--length', '64');
  assert.equal(other.stderr, 'sjd: --length 64: the run in --out has length 32\n');
  assert.deepEqual(config.alphabet, { symbols, pad: false });
  assert.equal(
    JSON.parse(readFileSync(join(dir, 'de-run/config.json'), 'utf8')).alphabet,
    undefined,
  );
  const metrics = readFileSync(join(dir, 'el-run/metrics.csv'), 'utf8').trim().split('\n');
  const column = metrics[0]!.split(',').indexOf('elbo_bits');
  assert.ok(column > 0, metrics[0]);
  const last = Number(metrics.at(-1)!.split(',')[column]);
  assert.ok(last > 0 && last < 2 * Math.log2(symbols.length), `${last}`);

  const letters = new RegExp(`^[${symbols.join('')}]{32}$`, 'u');
  const samples = ok('sample', 'text', '--model', 'el-run', '-n', '3', '--nfe', '8');
  const lines = samples.split('\n').slice(0, -1); // a sample may start or end with a space
  assert.equal(lines.length, 3);
  for (const l of lines) assert.match(l, letters);
  const prompted = ok(
    'sample',
    'text',
    '--model',
    'el-run',
    '-n',
    '2',
    '--nfe',
    '8',
    '--prompt',
    'Η Αθήνα',
  );
  // the prompt folded as the corpus was: lowercased, its accent kept
  for (const l of prompted.split('\n').slice(0, -1)) assert.ok(l.startsWith('η αθήνα'), l);
  for (const run of ['de-run', 'el-run']) {
    const e = ok('eval', 'text', '--model', run, '-n', '4', '--nfe', '8');
    assert.match(e, /held-out ELBO: \d+\.\d+ bits a character \(a bound; \d+ windows of 32/);
  }
  const wrong = sjd('eval', 'text', '--model', 'el-run', '--data', 'de', '-n', '2');
  assert.notEqual(wrong.status, 0);
  assert.match(wrong.stderr.trim(), /^sjd: de: its alphabet is not the model's \(\d+ symbols\)/);
  const bad = sjd('data', 'text', '--from', 'de.txt', '--alphabet', 'klingon', '--out', 'x');
  assert.notEqual(bad.status, 0);
  assert.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
  assert.ok(!existsSync(join(dir, 'x')));
});
