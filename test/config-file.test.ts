// A run configured from a file (src/cli/config-file.ts): `sjd train TASK --print-config` prints
// the config a new run would have (config.json's shape) and writes nothing; `--config FILE` takes
// any part of it: the network's width, depth and heads laid over the size's, the settings a flag
// also makes taken as that flag's value (checked by its parser), a flag on the command line
// overriding the file; the run's config.json holds the result. A setting the schema does not
// know, a bad value and a misfit network are refused in one line naming the path; a resumed run
// keeps its own config.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliIn } from './sjd-cli.js';
import { tempDir } from './tmp.js';

test("--print-config prints a new run's config; --config sets the network and the flags, which the command line overrides", () => {
  const dir = tempDir('sjd-config-file-');
  const { run, ok } = cliIn(dir);
  const base = JSON.parse(ok('train', 'text', '--size', 'tiny', '--print-config'));
  assert.deepEqual(
    [base.task, base.model.size, base.model.width, base.length],
    ['text', 'tiny', 32, 64],
  );
  assert.ok(!existsSync(join(dir, 'runs'))); // nothing written

  writeFileSync(
    join(dir, 'mine.json'),
    JSON.stringify({
      model: { width: 48, depth: 2, heads: 4 },
      steps: 3,
      lr: { lr: 0.002 },
      length: 32,
    }),
  );
  // the file's network and length laid over the size's; --steps on the command line beats its 3
  ok('train', 'text', '--size', 'tiny', '--config', 'mine.json', '--steps', '2', '--out', 'run');
  const saved = JSON.parse(readFileSync(join(dir, 'run', 'config.json'), 'utf8'));
  assert.deepEqual(
    [saved.model.width, saved.model.depth, saved.model.heads, saved.length],
    [48, 2, 4, 32],
  );
  assert.deepEqual([saved.steps, saved.lr.lr, saved.lr.total], [2, 0.002, 2]);

  for (const [file, line] of [
    [
      { model: { widht: 3 } },
      "sjd: --config bad.json: model.widht: not a setting of a text run's config",
    ],
    [{ steps: 'many' }, 'sjd: --config bad.json: steps: expected an integer in [1, 1000000000]'],
    [{ model: { heads: 5 } }, 'sjd: --config bad.json: model: width must be a multiple of heads'],
  ] as const) {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(file));
    const r = run('train', 'text', '--size', 'tiny', '--config', 'bad.json', '--out', 'bad-run');
    assert.equal(r.status, 1);
    assert.equal(r.stderr, `${line}\n`);
    assert.ok(!existsSync(join(dir, 'bad-run')));
  }
  const resumed = run('train', 'text', '--resume', '--out', 'run', '--config', 'mine.json');
  assert.equal(
    resumed.stderr,
    'sjd: --config and --print-config are for a new run; a resumed run keeps its config.json\n',
  );
});
