// Token corpora (`sjd data tokens`): GPT-2's BPE from js-tiktoken (known ids, exact round trips,
// no special token added), a HuggingFace tokenizer.json written here (encoded, decoded, copied
// into the corpus), the .tok file format in both widths and each malformed file refused at its
// byte, the text encoded piece by piece giving the ids of the whole text, corpus folders claimed
// and checked, and the command end to end.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { embeddedFiles } from '../src/tasks/text/source.js';
import { PieceCutter } from '../src/tasks/text/tokens/pieces.js';
import {
  isTokenCorpus,
  loadTokenCorpus,
  writeTokenCorpus,
} from '../src/tasks/text/tokens/token-corpus.js';
import { readTokenFile, writeTokenFile } from '../src/tasks/text/tokens/token-file.js';
import { loadTokenizer } from '../src/tasks/text/tokens/tokenizer.js';
import { pushAll } from '../src/util/fold.js';
import { sourceAndUserFolder, tempDir } from './tmp.js';

const tmp = () => tempDir('sjd-tokens-');
const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (...args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000 });
/** An error whose message is exactly one line matching `re`. */
const oneLine = (re: RegExp) => (e: Error) => re.test(e.message) && !e.message.includes('\n');

/** Text that puts every kind of whitespace run and many-byte character beside words. */
const TRICKY = [
  'Hello, World 7!  Two  spaces,   three,\tand a tab;\ttwo\t\ttabs.',
  'Line ends:\nLF\r\nCRLF\n\n\nthree blank lines \n trailing space, then a leading one.',
  "Contractions: don't, we'll, it's. Numbers 1234567 and 3.14159; café, naïve, 😀 emoji 𝔘nicode.",
  'A <|endoftext|> in the text, ÅÄÖ, ünïcödé, 日本語のテキスト, and     many     spaces  ',
  'one\n\n\ntwo\n\n\n\nthree\t\n\t\nfour \n \n five\r\n\r\nsix   \n   seven',
].join('\n');

/** A tiny WordLevel tokenizer.json: whitespace pre-tokenizer, a BOS template, an added token. */
function wordLevelJson(): string {
  const words = ['[UNK]', '[BOS]', 'the', 'cat', 'sat', 'on', 'mat', '.', ','];
  return JSON.stringify({
    version: '1.0',
    added_tokens: [
      { id: 1, content: '[BOS]', single_word: false, lstrip: false, rstrip: false },
      { id: 11, content: '[EOS]', single_word: false, lstrip: false, rstrip: false },
    ].map((t) => ({ ...t, normalized: false, special: true })),
    normalizer: null,
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[BOS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
      ],
      pair: [],
      special_tokens: {},
    },
    decoder: null,
    model: {
      type: 'WordLevel',
      vocab: Object.fromEntries(words.map((w, i) => [w, i])),
      unk_token: '[UNK]',
    },
  });
}

test('gpt2: known ids, no special token added, an exact round trip of the embedded corpus', () => {
  const g = loadTokenizer('gpt2');
  assert.equal(g.vocab, 50257);
  assert.deepEqual(g.encode('Hello'), [15496]);
  assert.deepEqual(g.encode('Hello world'), [15496, 995]); // no BOS, no EOS
  assert.deepEqual(g.encode('Hi<|endoftext|>'), [17250, 50256]); // spelled in the text
  const slice = readFileSync(embeddedFiles()[0]!, 'utf8').slice(0, 20_000);
  for (const text of [slice, TRICKY]) {
    const ids = g.encode(text);
    assert.ok(ids.length > 0 && ids.length < text.length);
    assert.equal(g.decode(ids), text);
    assert.equal(g.decode(Uint16Array.from(ids)), text);
  }
  assert.throws(() => g.decode([15496, 50257]), oneLine(/token 50257 at position 1 is outside/));
});

test('a HuggingFace tokenizer.json: encoded without its template, decoded, errors name the file', () => {
  const dir = tmp();
  const path = join(dir, 'tokenizer.json');
  writeFileSync(path, wordLevelJson());
  const t = loadTokenizer(path);
  assert.equal(t.vocab, 12); // the added [EOS] is id 11
  assert.equal(t.name, 'WordLevel tokenizer.json');
  assert.deepEqual(t.encode('the cat sat on the mat.'), [2, 3, 4, 5, 2, 6, 7]); // no [BOS]
  assert.deepEqual(t.encode('the dog [EOS]'), [2, 0, 11]);
  assert.equal(t.decode([2, 3, 4, 7, 11]), 'the cat sat . [EOS]');
  assert.equal(t.decode([]), '');
  assert.equal(loadTokenizer('tokenizer.json', dir).vocab, 12); // relative to a folder
  assert.throws(() => t.decode([12]), oneLine(/tokenizer\.json: token 12 at position 0/));
  const bad = (name: string, content: string, re: RegExp) => {
    writeFileSync(join(dir, name), content);
    assert.throws(() => loadTokenizer(join(dir, name)), oneLine(re));
  };
  bad('broken.json', '{"model": ', /broken\.json: not valid JSON/);
  bad('none.json', '[1, 2]', /none\.json: not a tokenizer\.json \(no "model" object\)/);
  bad('odd.json', '{"model": {"type": "Odd"}}', /odd\.json: unsupported tokenizer model "Odd"/);
  const negative = JSON.parse(wordLevelJson());
  negative.model.vocab.dog = -1;
  bad('negative.json', JSON.stringify(negative), /negative\.json: token "dog" has id -1 \(ids/);
  assert.throws(() => loadTokenizer(join(dir, 'missing.json')), oneLine(/missing\.json: no such/));
  assert.throws(() => loadTokenizer(dir), oneLine(/: a folder, not a tokenizer\.json$/));
});

test('token files round trip in both widths, header as documented', () => {
  const dir = tmp();
  for (const [vocab, ids, width] of [
    [50257, [0, 15496, 50256, 7], 2],
    [65536, [65535, 0], 2],
    [70000, [69999, 65536, 0, 1], 4],
  ] as [number, number[], number][]) {
    const p = join(dir, `${vocab}.tok`);
    writeTokenFile(p, ids, vocab);
    const bytes = readFileSync(p);
    assert.equal(bytes.toString('latin1', 0, 8), 'SJDTOKS1');
    assert.equal(bytes.readUInt32LE(8), width);
    assert.equal(bytes.readUInt32LE(12), vocab);
    assert.equal(bytes.readBigUInt64LE(16), BigInt(ids.length));
    assert.equal(bytes.length, 24 + width * ids.length);
    assert.equal(width === 2 ? bytes.readUInt16LE(24) : bytes.readUInt32LE(24), ids[0]);
    const f = readTokenFile(p);
    assert.equal(f.vocab, vocab);
    assert.ok(f.ids instanceof (width === 2 ? Uint16Array : Uint32Array));
    assert.deepEqual([...f.ids], ids);
  }
  assert.throws(
    () => writeTokenFile(join(dir, 'x.tok'), [1, 5], 5),
    oneLine(/x\.tok: token 5 at index 1 is outside 0\.\.4$/),
  );
  assert.ok(!existsSync(join(dir, 'x.tok')));
});

test('a malformed token file is refused at its byte', () => {
  const dir = tmp();
  const p = join(dir, 'split.tok');
  const good = () => writeTokenFile(p, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 100); // 24 + 20 bytes
  const refused = (message: string) =>
    assert.throws(
      () => readTokenFile(p),
      (e: Error) => e.message === `${p}: ${message}`,
    );
  good();
  const b = readFileSync(p);
  b.write('NOTTOKS1', 0, 'latin1');
  writeFileSync(p, b);
  refused('byte 0: not a token file (it starts "NOTTOKS1", not SJDTOKS1)');
  good();
  truncateSync(p, 41);
  refused('byte 41: header says 10 tokens, body holds 8 and 1 byte');
  good();
  appendFileSync(p, Buffer.alloc(2));
  refused('byte 44: header says 10 tokens, body holds 11');
  good();
  const c = readFileSync(p);
  c.writeUInt16LE(100, 24 + 2 * 3); // the fourth id
  writeFileSync(p, c);
  refused('byte 30: token 100 is not below the vocab 100');
  c.writeUInt32LE(3, 8);
  writeFileSync(p, c);
  refused('byte 8: id width 3 (2 or 4 bytes)');
  truncateSync(p, 12);
  refused('byte 12: the file ends inside the 24-byte header');
});

test('text encoded piece by piece gives the ids of the whole text', () => {
  const dir = tmp();
  const g = loadTokenizer('gpt2');
  const a = `${TRICKY}\n${'The quick brown fox jumps over the lazy dog.  '.repeat(60)}`;
  const b = `  leading spaces; ${'Numbers 42 and 7, words.\n\n'.repeat(50)}trailing \t `;
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'b.txt'), b);
  writeFileSync(join(dir, 'src', 'a.txt'), a);
  const whole = g.encode(`${a}\n\n${b}`); // files in name order, a blank line between
  for (const target of [1, 2, 3, 5, 6, 7]) {
    const ids: number[] = [];
    const cutter = new PieceCutter((p) => pushAll(ids, g.encode(p)), target);
    for (const ch of TRICKY) cutter.push(ch);
    cutter.end();
    assert.deepEqual(ids, g.encode(TRICKY), `pieces of ${target}`);
  }
  for (const chunkBytes of [1, 3, 7, 64, undefined]) {
    const out = join(dir, `out${chunkBytes}`);
    const meta = writeTokenCorpus(join(dir, 'src'), out, { tokenizer: 'gpt2', chunkBytes });
    const c = loadTokenCorpus(out);
    assert.deepEqual([...c.train, ...c.valid, ...c.test], whole, `chunkBytes ${chunkBytes}`);
    assert.equal(c.train.length, Math.floor(whole.length * 0.9));
    assert.equal(c.train.length + c.valid.length, Math.floor(whole.length * 0.95));
    assert.equal(meta.splits.train.tokens, c.train.length);
    assert.equal(c.hash, meta.splits.train.sha256);
  }
  // Text without whitespace is cut only past the limit, never inside a surrogate pair.
  const pieces: string[] = [];
  const cutter = new PieceCutter((p) => pieces.push(p), 4, 16);
  const run = 'ab😀'.repeat(20);
  for (const ch of run) cutter.push(ch);
  cutter.end();
  assert.equal(pieces.join(''), run);
  assert.ok(pieces.length > 1 && pieces.every((p) => p.length <= 17));
  assert.ok(pieces.every((p) => !/[\uD800-\uDBFF]$/.test(p)));
});

test('a tokenizer.json corpus carries its copy and reads back without the original', () => {
  const dir = tmp();
  const path = join(dir, 'my-tokenizer.json');
  writeFileSync(path, wordLevelJson());
  const text = 'the cat sat on the mat , the cat sat .\n'.repeat(100);
  writeFileSync(join(dir, 'src.txt'), text);
  const out = join(dir, 'corpus');
  const meta = writeTokenCorpus(join(dir, 'src.txt'), out, { tokenizer: path, chunkBytes: 5 });
  assert.deepEqual(meta.tokenizer, {
    spec: 'tokenizer.json',
    name: 'WordLevel tokenizer.json',
    vocab: 12,
    sha256: meta.tokenizer.sha256,
    from: path,
  });
  assert.equal(readFileSync(join(out, 'tokenizer.json'), 'utf8'), wordLevelJson());
  rmSync(path);
  const c = loadTokenCorpus(out);
  assert.deepEqual([...c.train.slice(0, 7)], [2, 3, 4, 5, 2, 6, 8]);
  assert.equal(c.train.length + c.valid.length + c.test.length, 1100);
  assert.equal(c.tokenizer.decode(c.train.slice(0, 4)), 'the cat sat on');
  writeFileSync(join(out, 'tokenizer.json'), wordLevelJson().replace('"cat"', '"dog"'));
  assert.throws(() => loadTokenCorpus(out), oneLine(/tokenizer\.json: sha256 differs from corpus/));
});

test('unknown tokens: counted and reported; a corpus over 5% unknown is refused unless --allow-unknown', () => {
  const dir = tmp();
  const path = join(dir, 'tokenizer.json');
  writeFileSync(path, wordLevelJson());
  // 11 tokens a line, one unknown ('dog'): 9.1%
  const src = join(dir, 'src.txt');
  writeFileSync(src, 'the cat sat on the mat , the dog sat .\n'.repeat(100));
  const out = join(dir, 'corpus');
  assert.throws(
    () => writeTokenCorpus(src, out, { tokenizer: path }),
    oneLine(
      /src\.txt: 9\.1% of the tokens \(100 of 1100\) are WordLevel tokenizer\.json's unknown token \[UNK\], so samples would be mostly \[UNK\]; use a tokenizer whose vocabulary covers the text \(gpt2, or a byte-level tokenizer\.json\), or keep it with --allow-unknown$/,
    ),
  );
  assert.ok(!existsSync(out));
  const kept = writeTokenCorpus(src, out, { tokenizer: path, allowUnknown: true });
  assert.deepEqual(kept.unknown, { token: '[UNK]', count: 100 });
  assert.deepEqual(loadTokenCorpus(out).train.length, 990);
  // through the CLI: the share on its own line; refused without the flag, nothing written
  const r = sjd('data', 'tokens', '--from', src, '--tokenizer', path, '--out', join(dir, 'c2'));
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^sjd: .*9\.1% of the tokens .* --allow-unknown\n$/);
  assert.ok(!existsSync(join(dir, 'c2')));
  const a = sjd(
    'data',
    'tokens',
    '--from',
    src,
    '--tokenizer',
    path,
    '--out',
    join(dir, 'c2'),
    '--allow-unknown',
  );
  assert.equal(a.status, 0, a.stderr);
  assert.match(a.stdout, /\nunknown tokens: 9\.1% \(100 of 1100 are \[UNK\]\)\n$/);
});

test('corpus folders: claimed first, refused with a count, checked when read', () => {
  const dir = tmp();
  const { src, out } = sourceAndUserFolder(dir, 'Hello, World 7! '.repeat(300));
  assert.throws(
    () => writeTokenCorpus(src, out, { tokenizer: 'gpt2' }),
    oneLine(/out is not empty and is not a token corpus folder written by sjd; .*--force/),
  );
  assert.equal(readFileSync(join(out, 'notes.txt'), 'utf8'), 'mine');
  assert.ok(!isTokenCorpus(out));
  writeTokenCorpus(src, out, { tokenizer: 'gpt2', force: true });
  assert.deepEqual(readdirSync(out).sort(), ['corpus.json', 'test.tok', 'train.tok', 'valid.tok']);
  assert.ok(isTokenCorpus(out));
  writeTokenCorpus(src, out, { tokenizer: 'gpt2' }); // sjd's own folder: replaced
  writeFileSync(join(dir, 'short.txt'), 'Too short. '.repeat(20));
  const few = loadTokenizer('gpt2').encode('Too short. '.repeat(20)).length;
  assert.throws(
    () => writeTokenCorpus(join(dir, 'short.txt'), out, { tokenizer: 'gpt2' }),
    (e: Error) => e.message === `${dir}/short.txt: only ${few} tokens (gpt2; need at least 1000)`,
  );
  assert.throws(
    () => writeTokenCorpus(src, out, { tokenizer: join(dir, 'nope.json') }),
    oneLine(/nope\.json: no such file/),
  );
  assert.deepEqual(readdirSync(dir).sort(), ['out', 'short.txt', 'src.txt']); // nothing beside
  const c = loadTokenCorpus(out);
  assert.equal(c.source, src);
  const train = join(out, 'train.tok');
  const bytes = readFileSync(train);
  bytes.writeUInt16LE(bytes.readUInt16LE(24) + 1, 24);
  writeFileSync(train, bytes);
  assert.throws(() => loadTokenCorpus(out), oneLine(/train\.tok: sha256 differs from corpus/));
  truncateSync(train, 30);
  assert.throws(() => loadTokenCorpus(out), oneLine(/train\.tok: byte 30: header says \d+ tokens/));
  assert.throws(() => loadTokenCorpus(dir), oneLine(/no corpus\.json .*sjd data tokens/));
  const meta = JSON.parse(readFileSync(join(out, 'corpus.json'), 'utf8'));
  meta.tokenizer.spec = '../elsewhere.json';
  writeFileSync(join(out, 'corpus.json'), JSON.stringify(meta));
  assert.throws(
    () => loadTokenCorpus(out),
    oneLine(/corpus\.json: tokenizer\.spec: gpt2 or tokenizer\.json$/),
  );
});

test('sjd data tokens writes a corpus, refuses a user folder and a missing source in one line', () => {
  const dir = tmp();
  const src = join(dir, 'src.txt');
  const text = 'Hello, World 7! '.repeat(300);
  writeFileSync(src, text);
  const n = loadTokenizer('gpt2').encode(text).length;
  const [a, b] = [Math.floor(n * 0.9), Math.floor(n * 0.95)];
  const out = join(dir, 'out');
  const ok = sjd('data', 'tokens', '--from', src, '--tokenizer', 'gpt2', '--out', out);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(
    ok.stdout,
    `wrote ${out}: train ${a}, valid ${b - a}, test ${n - b} tokens (gpt2, vocab 50257, from ${src})\n`,
  );
  assert.equal(loadTokenCorpus(out).train.length, a);
  const mine = join(dir, 'mine');
  mkdirSync(mine);
  writeFileSync(join(mine, 'notes.txt'), 'keep me');
  const refused = sjd('data', 'tokens', '--from', src, '--tokenizer', 'gpt2', '--out', mine);
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /^sjd: .*mine is not empty .*--force to replace it\n$/);
  assert.deepEqual(readdirSync(mine), ['notes.txt']);
  assert.equal(readFileSync(join(mine, 'notes.txt'), 'utf8'), 'keep me');
  const before = readdirSync(dir).sort();
  const missing = join(dir, 'missing.txt');
  const fresh = join(dir, 'fresh');
  for (const args of [
    ['--from', missing, '--tokenizer', 'gpt2', '--out', fresh],
    ['--tokenizer', 'gpt2', '--out', fresh],
  ]) {
    const r = sjd('data', 'tokens', ...args);
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /^sjd: [^\n]*(missing\.txt: no such file or folder|--from)[^\n]*\n$/);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(readdirSync(dir).sort(), before); // no output folder, nothing temporary
  }
});
