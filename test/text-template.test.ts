// Text templates (issue #30 item 1): a prompt, a suffix or an infill with holes becomes known
// characters at their positions, the rest holes; every sampler a model's process runs keeps the
// known characters exactly as given and fills the holes (a tiny hybrid model trained here, and the
// shipped masked one); texts come back at the template's length; bad templates are refused in
// one line naming the character and its position, from the library and from `sjd sample text`.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { samplersFor } from '../src/sampling/index.js';
import {
  ALPHABET,
  loadTextModel,
  sampleText,
  type TextTemplate,
  textTemplate,
} from '../src/tasks/text/index.js';
import { textSpec } from '../src/tasks/text/spec.js';
import { train } from '../src/train/index.js';
import { sjd } from './serve-fixture.js';
import { tempDir } from './tmp.js';

test('templates: prompt, suffix and infill at their positions; length; refusals name the problem', () => {
  assert.equal(textTemplate({}, 64), null);
  const p = textTemplate({ prompt: 'ab', suffix: 'z', length: 6 }, 64)!;
  assert.equal(p.length, 6);
  assert.deepEqual(p.known.slice(0, 7), [true, true, false, false, false, true, false]);
  assert.deepEqual(p.tokens.slice(0, 6), [0, 1, 0, 0, 0, 25]);
  const f = textTemplate({ infill: 'a_ _c' }, 64)!;
  assert.equal(f.length, 5);
  assert.deepEqual(f.known.slice(0, 5), [true, false, true, false, true]);
  assert.deepEqual(f.tokens.slice(0, 5), [0, 0, 26, 0, 2]);
  assert.equal(textTemplate({ length: 10 }, 64)!.known.some(Boolean), false);
  const bad: [Parameters<typeof textTemplate>[0], RegExp][] = [
    [
      { prompt: 'aB' },
      /--prompt: "B" at position 1 is not in the model's alphabet \(a-z and space\)/,
    ],
    [{ infill: 'a-b' }, /--infill: "-" at position 1 .*; _ marks a hole/],
    [{ infill: 'ab', prompt: 'a' }, /--infill is a whole template/],
    [{ prompt: 'abcdef', length: 4 }, /--prompt: 6 characters do not fit a text of 4/],
    [{ prompt: 'abc', suffix: 'cd', length: 4 }, /overlap at position 2/],
    [{ length: 65 }, /--length must be a whole number from 1 to the model's 64, got 65/],
    [{ infill: 'a'.repeat(65) }, /--length must be .* got 65/],
  ];
  for (const [spec, want] of bad) assert.throws(() => textTemplate(spec, 64), want);
});

/** Each text keeps the template's known characters and has its length. */
function assertClamped(texts: string[], template: TextTemplate, what: string) {
  for (const t of texts) {
    assert.equal(t.length, template.length, what);
    for (let i = 0; i < template.length; i++)
      if (template.known[i])
        assert.equal(
          t[i],
          ALPHABET[template.tokens[i]!],
          `${what}: position ${i} of ${JSON.stringify(t)}`,
        );
  }
}

test('every sampler keeps the known characters exactly (a hybrid model, the shipped masked one)', async () => {
  const dir = tempDir('sjd-template-');
  const run = textSpec.train.prepare(
    { out: 'x', size: 'tiny', steps: 4, process: 'hybrid', evalSamples: 1, evalNfe: 4 },
    undefined,
  );
  await train(join(dir, 'hybrid'), run.config, run.task, false);
  for (const m of [loadTextModel(join(dir, 'hybrid')), loadTextModel()]) {
    const L = m.model.config.length;
    const template = textTemplate(
      { infill: `the ${'_'.repeat(6)} of ${'_'.repeat(5)} history`, length: Math.min(L, 40) },
      L,
    )!;
    for (const sampler of samplersFor(m.process)) {
      const { texts } = sampleText(m.model, m.process, {
        n: 2,
        nfe: 8,
        seed: 1,
        sampler,
        template,
      });
      assertClamped(texts, template, `${m.process.config.name} ${sampler}`);
      // the holes are filled: no model keeps every one of them a space
      assert.ok(
        texts.some((t) => /[a-z]/.test(t.slice(4, 10))),
        `${sampler}: ${texts}`,
      );
    }
  }
});

test('sjd sample text --prompt / --infill print the template filled; a bad one is one line', () => {
  const r = sjd(
    'sample',
    'text',
    '--infill',
    'the ____ of the united states',
    '-n',
    '2',
    '--nfe',
    '16',
  );
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.replace(/\n$/, '').split('\n');
  assert.equal(lines.length, 2);
  for (const l of lines) assert.match(l, /^the [a-z ]{4} of the united states$/);
  assert.match(r.stderr, /2 samples of 29 characters, 25 given, mdlm sampler, 16 NFE/);
  const bad = sjd('sample', 'text', '--prompt', 'Hello');
  assert.notEqual(bad.status, 0);
  assert.equal(
    bad.stderr.trim(),
    `sjd: --prompt: "H" at position 0 is not in the model's alphabet (a-z and space)`,
  );
});
