// sjd in headless Chromium (`sjd/web`, web/dist/sjd-web.js) against the libtorch addon at one
// thread in this process: one Sudoku board at a time at the defaults (the median over 20
// generated no-guess boards, each solved alone, as a page solves the board it is given) and one
// sample of the shipped text model's length at NFE 64. The page is served by a plain static file
// server; the model files are the shipped ones. Needs /usr/bin/chromium.
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { chromium } from 'playwright-core';
import { generatedPairs } from '../src/tasks/sudoku/data.js';
import { loadSudokuModel } from '../src/tasks/sudoku/load.js';
import { solveSudoku } from '../src/tasks/sudoku/solve.js';
import { defaultSudokuNfe, sudokuSampling } from '../src/tasks/sudoku/solve-defaults.js';
import { loadTextModel } from '../src/tasks/text/load.js';
import { sampleText } from '../src/tasks/text/sample.js';
import { getNumThreads, setNumThreads } from '../src/torch/index.js';
import { median } from './reference.js';
import { type BenchResult, register } from './registry.js';

const CHROMIUM = '/usr/bin/chromium';
const root = new URL('../..', import.meta.url).pathname;
const BOARDS = 20;

/** What the page does: loads the models, then times each board alone and one text sample. */
const PAGE = (puzzles: string[]) => `<!doctype html><meta charset="utf-8"><script type="module">
import * as sjd from './sjd-web.js';
const out = {};
try {
  const sudoku = await sjd.loadModel('sudoku', './models/sudoku/');
  const times = [];
  const solved = [];
  for (const p of ${JSON.stringify(puzzles)}) {
    const t0 = performance.now();
    solved.push(sjd.solveSudoku(sudoku, [p]).boards[0]);
    times.push(performance.now() - t0);
  }
  out.sudoku = { times, solved };
  const text = await sjd.loadModel('text', './models/text/');
  const t0 = performance.now();
  const r = sjd.sampleText(text.model, text.process, { n: 1, nfe: 64, temperature: 1, seed: 0, batch: 1 });
  out.text = { ms: performance.now() - t0, length: r.texts[0].length };
} catch (e) {
  out.error = String(e && e.stack || e);
}
window.result = out;
</script>`;

register(
  'browser-sudoku-text',
  async (): Promise<BenchResult> => {
    if (!existsSync(CHROMIUM))
      throw new Error(`${CHROMIUM} is not installed (apt-get install chromium)`);
    const { puzzles, solutions } = generatedPairs(BOARDS, 3);
    const strings = puzzles.map((p) => Array.from(p).join(''));
    const site = mkdtempSync(join(tmpdir(), 'sjd-bench-web-'));
    const server = Fastify();
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      cpSync(join(root, 'web', 'dist', 'sjd-web.js'), join(site, 'sjd-web.js'));
      for (const m of ['sudoku', 'text'])
        cpSync(join(root, 'models', m), join(site, 'models', m), { recursive: true });
      writeFileSync(join(site, 'index.html'), PAGE(strings));
      await server.register(fastifyStatic, { root: site });
      const url = await server.listen({ host: '127.0.0.1', port: 0 });
      const page = await browser.newPage();
      await page.goto(`${url}/index.html`);
      await page.waitForFunction(() => 'result' in window, null, { timeout: 900_000 });
      const r = (await page.evaluate(() => (window as unknown as { result: unknown }).result)) as {
        error?: string;
        sudoku: { times: number[]; solved: string[] };
        text: { ms: number; length: number };
      };
      if (r.error) throw new Error(`the page failed: ${r.error}`);
      // the same boards one at a time, and the same text sample, on libtorch at one thread
      const threads = getNumThreads();
      setNumThreads(1);
      const torchTimes: number[] = [];
      let textMs = 0;
      try {
        const { model, process: proc } = loadSudokuModel();
        const { sampler, rules } = sudokuSampling({});
        const settings = { sampler, rules, nfe: defaultSudokuNfe(sampler), seed: 0 };
        for (const p of puzzles) {
          const t0 = performance.now();
          solveSudoku(model, proc, [p], settings);
          torchTimes.push(performance.now() - t0);
        }
        const text = loadTextModel();
        text.model.eval();
        const t0 = performance.now();
        sampleText(text.model, text.process, { n: 1, nfe: 64, temperature: 1, seed: 0, batch: 1 });
        textMs = performance.now() - t0;
      } finally {
        setNumThreads(threads);
      }
      const right = r.sudoku.solved.filter(
        (b, i) => b === Array.from(solutions[i]!).join(''),
      ).length;
      return {
        sjd_ms: median(r.sudoku.times),
        ref_ms: median(torchTimes),
        board_max_ms: Math.max(...r.sudoku.times),
        boards_solved: right,
        text_nfe64_ms: r.text.ms,
        text_length: r.text.length,
        torch_text_nfe64_ms: textMs,
      };
    } finally {
      await browser.close();
      await server.close();
      rmSync(site, { recursive: true, force: true });
    }
  },
  'the libtorch addon at one thread in this process, the same boards one at a time',
);
