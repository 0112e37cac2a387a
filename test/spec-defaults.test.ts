// One home for each sampling default: a task's spec holds its sampling defaults (the library's in
// src/sampling/defaults.ts, each task's in its sampling file), and the commands, the API and the
// library read them there when a setting is not given. A change to the text and Sudoku specs'
// defaults is seen by `sjd sample text --help` and its run, `sjd solve --help`, /api/models and
// a request's echoed settings, and by sampleText and solveSudoku called without the setting
// (their results equal those of the setting given explicitly, and differ from the old default's).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SAMPLING_DEFAULTS } from '../src/sampling/index.js';
import { buildApp } from '../src/serve/index.js';
import { taskSpec } from '../src/tasks/registry.js';
import * as sudoku from '../src/tasks/sudoku/index.js';
import * as text from '../src/tasks/text/index.js';
import { tempDir } from './tmp.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin/sjd.js');
const EASY = '530070000600195000098000060800060003400803001700020006060000280000419005000080079';

/** Sets the text and Sudoku specs' defaults to `changed` for the duration of `f`. */
async function withChangedDefaults<T>(f: () => Promise<T> | T): Promise<T> {
  const textD = taskSpec('text').sampling;
  const sudokuD = taskSpec('sudoku').sampling;
  const saved = [textD.temperature, sudokuD.temperature, sudokuD.grid] as const;
  textD.temperature = 0.55;
  sudokuD.temperature = 0.8;
  sudokuD.grid = 'uniform';
  try {
    return await f();
  } finally {
    [textD.temperature, sudokuD.temperature, sudokuD.grid] = saved;
  }
}

test('the task specs hold the defaults the library spreads from SAMPLING_DEFAULTS', () => {
  assert.equal(taskSpec('text').sampling, text.TEXT_SAMPLING);
  assert.equal(taskSpec('sudoku').sampling, sudoku.SUDOKU_SAMPLING);
  assert.equal(sudoku.SUDOKU_SAMPLING.grid, SAMPLING_DEFAULTS.grid);
  assert.equal(text.TEXT_SAMPLING.topP, SAMPLING_DEFAULTS.topP);
});

test("the CLI follows a changed spec default: --help's defaults and a run's settings", () => {
  const dir = tempDir('sjd-spec-defaults-');
  const module = join(dir, 'defaults.mjs');
  // a module given the library changes two shipped specs' defaults and registers a copy of text
  writeFileSync(
    module,
    `export default (sjd) => {
  sjd.taskSpec('text').sampling.temperature = 0.55;
  const s = sjd.taskSpec('sudoku').sampling;
  s.temperature = 0.8;
  s.grid = 'uniform';
  return { ...sjd.taskSpec('text'), name: 'text-copy' };
};
`,
  );
  const sjd = (...args: string[]) =>
    spawnSync(process.execPath, [bin, '--task-module', module, ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, SJD_THREADS: '1' },
    });
  const sampleHelp = sjd('sample', 'text', '--help');
  assert.equal(sampleHelp.status, 0, sampleHelp.stderr);
  assert.match(sampleHelp.stdout, /--temperature <t>\s+sampling temperature \(default: 0\.55\)/);
  const solveHelp = sjd('solve', '--help');
  assert.equal(solveHelp.status, 0, solveHelp.stderr);
  assert.match(solveHelp.stdout, /\(default: 0\.8\)/);
  assert.match(solveHelp.stdout, /--grid <kind>[\s\S]*?\(default: "uniform"\)/);
  const run = sjd('sample', 'text', '-n', '2', '--nfe', '4');
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /temperature 0\.55/);
});

test('the API follows a changed spec default: /api/models and the settings a request gets', async () => {
  await withChangedDefaults(async () => {
    const { app } = await buildApp();
    try {
      const models = (await app.inject({ method: 'GET', url: '/api/models' })).json();
      assert.equal(models.tasks.text.defaults.temperature, 0.55);
      assert.equal(models.tasks.sudoku.defaults.temperature, 0.8);
      assert.equal(models.tasks.sudoku.defaults.grid, 'uniform');
      const sample = await app.inject({
        method: 'POST',
        url: '/api/text/sample',
        payload: { n: 1, nfe: 4 },
      });
      assert.equal(sample.statusCode, 200, sample.body);
      assert.equal(sample.json().temperature, 0.55);
      const solve = await app.inject({
        method: 'POST',
        url: '/api/sudoku/solve',
        payload: { puzzle: EASY },
      });
      assert.equal(solve.statusCode, 200, solve.body);
      assert.equal(solve.json().temperature, 0.8);
      assert.equal(solve.json().grid, 'uniform');
    } finally {
      await app.close();
    }
  });
});

test('the library follows a changed spec default: sampleText and solveSudoku', async () => {
  const m = text.loadTextModel();
  const o = { n: 4, nfe: 8, seed: 3 };
  const texts = (extra: object) => text.sampleText(m.model, m.process, { ...o, ...extra }).texts;
  const was = texts({ temperature: 1 });
  await withChangedDefaults(() => {
    assert.deepEqual(texts({}), texts({ temperature: 0.55 }));
    assert.notDeepEqual(texts({}), was);
  });

  // a solve's recorded confidences are tempered probabilities: they show the temperature used
  const s = sudoku.loadSudokuModel();
  const board = sudoku.parseBoard(EASY);
  const confidences = (extra: object) => {
    const r = sudoku.solveSudoku(s.model, s.process, [board], {
      sampler: 'confidence' as const,
      nfe: 8,
      seed: 1,
      rules: false,
      retries: 0,
      record: true,
      ...extra,
    });
    return r.trajectory!.map((t) => Array.from(t.confidence));
  };
  const old = confidences({ temperature: 1 });
  await withChangedDefaults(() => {
    assert.deepEqual(confidences({}), confidences({ temperature: 0.8, grid: 'uniform' }));
    assert.notDeepEqual(confidences({}), old);
  });
});
