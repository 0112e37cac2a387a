// Text on BPE tokens: templates in tokens (a prompt's tokens first, a suffix's last, an infill's
// text tokenised between its holes); a GPT-2-tokenised corpus made from the embedded text, a
// masked model trained on it through the CLI, sampled from a prompt, scored by its held-out ELBO
// in bits a token (under log2 of the vocabulary, 15.6 bits, after ten steps); and a hybrid model
// on a HuggingFace tokenizer.json corpus, whose tokenizer its config keeps, so that sampling and
// the page decode through it.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { embeddedFiles } from '../src/tasks/text/source.js';
import { textSpec } from '../src/tasks/text/spec.js';
import { tokenTemplate } from '../src/tasks/text/tokens/token-template.js';
import { loadTokenizer } from '../src/tasks/text/tokens/tokenizer.js';
import { cliIn } from './sjd-cli.js';
import { tempDir } from './tmp.js';

test('token templates: a prompt first, a suffix last, an infill tokenised between its holes', () => {
  const g = loadTokenizer('gpt2');
  const p = tokenTemplate({ prompt: 'Hello world', suffix: '!', length: 6 }, 8, g)!;
  assert.equal(p.length, 6);
  assert.deepEqual(p.tokens.slice(0, 2), [15496, 995]);
  assert.deepEqual(p.known, [true, true, false, false, false, true, false, false]);
  assert.equal(p.tokens[5], g.encode('!')[0]);
  const f = tokenTemplate({ infill: 'Hello_ world' }, 8, g)!;
  assert.equal(f.length, 3);
  assert.deepEqual(f.known.slice(0, 3), [true, false, true]);
  assert.deepEqual([f.tokens[0], f.tokens[2]], [15496, 995]);
  assert.equal(tokenTemplate({}, 8, g), null);
  assert.throws(
    () => tokenTemplate({ prompt: 'Hello world', suffix: 'Hello world', length: 3 }, 8, g),
    /^Error: --prompt and --suffix overlap at position 1 \(a text of 3\)$/,
  );
  assert.throws(
    () => tokenTemplate({ prompt: 'one two three four five six seven eight nine' }, 4, g),
    /^Error: --prompt: 9 tokens do not fit a text of 4$/,
  );
});

test('GPT-2 tokens through the CLI: data tokens, train text, sample from a prompt, eval the ELBO', () => {
  const dir = tempDir('sjd-gpt2-');
  const { run, ok } = cliIn(dir);
  const text = embeddedFiles()
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
    .slice(0, 300_000);
  writeFileSync(join(dir, 'sotu.txt'), text);
  assert.match(
    ok('data', 'tokens', '--from', 'sotu.txt', '--tokenizer', 'gpt2', '--out', 'tok'),
    /^wrote tok: train \d+, valid \d+, test \d+ tokens \(gpt2, vocab 50257, from sotu\.txt\)$/m,
  );
  const t = run(
    ...['train', 'text', '--data', 'tok', '--size', 'tiny', '--process', 'masked'],
    ...['--steps', '10', '--length', '32', '--out', 'run'],
    ...['--eval-samples', '2', '--eval-nfe', '4'], // the held-out ELBO is what is checked
  );
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stderr, /training tokens \(gpt2, vocabulary 50257\) from tok, windows of 32/);
  const config = JSON.parse(readFileSync(join(dir, 'run/config.json'), 'utf8'));
  assert.deepEqual(config.tokenizer, { spec: 'gpt2', name: 'gpt2', vocab: 50257 });
  assert.equal(config.length, 32);
  const metrics = readFileSync(join(dir, 'run/metrics.csv'), 'utf8').trim().split('\n');
  const col = metrics[0]!.split(',').indexOf('elbo_bits');
  const bits = Number(metrics.at(-1)!.split(',')[col]);
  assert.ok(bits > 5 && bits < Math.log2(50257), `${bits}`);

  const prompt = 'The people of the United States';
  const samples = ok(
    'sample',
    'text',
    '--model',
    'run',
    '-n',
    '2',
    '--nfe',
    '8',
    '--prompt',
    prompt,
  );
  const lines = samples.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  for (const l of lines) assert.ok(l.startsWith(prompt) && l.length > prompt.length, l);
  const e = ok('eval', 'text', '--model', 'run', '--json');
  assert.match(
    e,
    /^held-out ELBO: \d+\.\d{3} bits a token, perplexity at most \d+\.\d \(a bound; 16 windows of 32, 4 draws\)$/m,
  );
  const scored = JSON.parse(e.trim().split('\n').at(-1)!);
  assert.ok(scored.elbo_bits > 5 && scored.elbo_bits < Math.log2(50257));
  const frontier = run('eval', 'text', '--model', 'run', '--infill');
  assert.notEqual(frontier.status, 0);
  assert.equal(
    frontier.stderr.trim(),
    'sjd: --frontier and --infill score words: they are for character models',
  );
});

test('a tokenizer.json corpus: a hybrid model keeps the tokenizer, samples and the page decode by it', () => {
  const dir = tempDir('sjd-wordlevel-');
  const { ok } = cliIn(dir);
  const words = ['[UNK]', 'the', 'cat', 'sat', 'on', 'mat', 'dog', 'ran', '.'];
  writeFileSync(
    join(dir, 'tokenizer.json'),
    JSON.stringify({
      version: '1.0',
      added_tokens: [],
      normalizer: null,
      pre_tokenizer: { type: 'Whitespace' },
      post_processor: null,
      decoder: null,
      model: {
        type: 'WordLevel',
        vocab: Object.fromEntries(words.map((w, i) => [w, i])),
        unk_token: '[UNK]',
      },
    }),
  );
  const sentences = ['the cat sat on the mat .', 'the dog ran on the mat .'];
  writeFileSync(
    join(dir, 'corpus.txt'),
    Array.from({ length: 400 }, (_, i) => sentences[i % 2]).join(' '),
  );
  ok('data', 'tokens', '--from', 'corpus.txt', '--tokenizer', 'tokenizer.json', '--out', 'tok');
  ok(
    ...['train', 'text', '--data', 'tok', '--size', 'tiny', '--process', 'hybrid'],
    ...['--steps', '10', '--length', '16', '--out', 'run'],
  );
  const config = JSON.parse(readFileSync(join(dir, 'run/config.json'), 'utf8'));
  assert.equal(config.tokenizer.vocab, words.length);
  assert.equal(config.tokenizer.json, readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
  const out = ok(
    'sample',
    'text',
    '--model',
    'run',
    '-n',
    '3',
    '--nfe',
    '8',
    '--prompt',
    'the cat',
  );
  for (const l of out.trimEnd().split('\n')) {
    assert.ok(l.startsWith('the cat'), l);
    for (const w of l.split(' ')) assert.ok(words.includes(w), `${w} in ${l}`);
  }
  const m = textSpec.load(join(dir, 'run'));
  assert.deepEqual(m.pieces, words);
  assert.equal(m.alphabet, undefined);
  const t = textSpec.conditioning!.parse(m, { prompt: 'the dog' }) as { tokens: number[] };
  assert.deepEqual(t.tokens.slice(0, 2), [1, 6]);
});
