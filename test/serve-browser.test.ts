// The page of `sjd serve` end to end in a real headless browser: Debian's chromium
// driven by playwright-core (no browser download). On load, at 1280 and at 390 px, the page plays
// a generated puzzle with no click (its cells seen sticking over several drawn steps, solved),
// names the models served, runs off neither screen (full-page screenshots of both), and its
// Download saves the puzzle and the answer. Opened idle (`?play=0`) it says which tasks are
// unavailable; a puzzle typed in is solved with the board shown solved while the stream
// advances (several steps seen as they arrive); the slider replays the run; a generated puzzle
// fills the input; a bad puzzle shows the server's one-line reason. A screenshot of the replay
// half-way is saved in the test's folder (and, with SJD_SERVE_SCREENSHOT=path, there too: how
// docs/assets/serve-sudoku.png is made). The Text tab fills a template: through the replay,
// the given characters never change and every hole, once committed, keeps its character; a bad
// template shows the server's one-line reason. The Sequences tab samples a user's sequences model
// (trained here, served beside the shipped Sudoku model) from a template and downloads its rows.
// Skipped, saying so, where chromium is not installed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Locator } from 'playwright-core';
import { DEFAULT_RETRIES } from '../src/tasks/sudoku/retry.js';
import { EASY, modelsFolder, startServer } from './serve-fixture.js';
import { tempDir } from './tmp.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install chromium): the browser test needs it`;

const models = skip ? '' : modelsFolder(false);
const shots = tempDir('sjd-serve-browser-');
let server: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;

before(async () => {
  if (skip) return;
  server = await startServer({ models });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** An element's text (its textContent). */
const text = async (l: Locator) => (await l.textContent()) ?? '';

/**
 * Run in the page before its own script: every count of committed cells the board shows while a
 * solve plays, in order, kept in `window.committedCounts` (a mutation observer sees each drawn
 * step, however slowly the test would poll on a loaded machine).
 */
function recordCommitted(): void {
  const counts: number[] = [];
  (window as unknown as { committedCounts: number[] }).committedCounts = counts;
  new MutationObserver(() => {
    if (document.querySelector('#sudoku')?.getAttribute('data-state') !== 'running') return;
    const n = document.querySelectorAll('#board .cell.committed').length;
    if (counts.at(-1) !== n) counts.push(n);
  }).observe(document, { subtree: true, childList: true, attributeFilter: ['class'] });
}

/** The page at `url` (`?play=0`: without the solve it plays on load), ready. */
async function openPage(url = `${server.url}/?play=0`, width = 1000, height = 820) {
  const page = await browser.newPage({ viewport: { width, height } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(recordCommitted);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

test('on load the page plays a generated puzzle, cells sticking step by step; it names the models served; it fits 1280 and 390 px; a result downloads', {
  skip,
}, async () => {
  for (const [width, height] of [
    [1280, 860],
    [390, 844],
  ] as const) {
    const { page, errors } = await openPage(server.url, width, height);
    assert.match(
      await text(page.locator('#models')),
      /^Models: Sudoku: .*model\.safetensors \(SJD\); Text: none served; Images: none served; Sequences: none served\.$/,
    );
    // no click: a puzzle generated and solved, its steps drawn one at a time as they stick
    await page.waitForSelector('#sudoku[data-state="running"]', { timeout: 30_000 });
    assert.match(await page.inputValue('#puzzle'), /^[0-9]{81}$/);
    await page.waitForSelector('#sudoku[data-state="done"]', { timeout: 60_000 });
    const drawn = new Set(
      await page.evaluate(
        () => (window as unknown as { committedCounts: number[] }).committedCounts,
      ),
    );
    assert.ok(drawn.size >= 3, `committed counts drawn while it played: ${[...drawn]}`);
    assert.match(await text(page.locator('.verdict')), /^solved \(\d+ NFE/);
    // nothing runs off the screen
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    assert.ok(overflow <= 0, `${width} px: the page is ${overflow} px wider than the screen`);
    const shot = join(shots, `page-${width}.png`);
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(statSync(shot).size > 10_000);
    // Download: the puzzle and the answer as text
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#sudoku .download'),
    ]);
    assert.equal(download.suggestedFilename(), 'sudoku.txt');
    const saved = readFileSync((await download.path())!, 'utf8');
    assert.match(saved, /^puzzle\n(\d{3} \d{3} \d{3}\n){9}\nanswer \(solved/);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('the page solves a typed puzzle step by step and replays it', { skip }, async () => {
  const { page, errors } = await openPage();
  const sudoku = page.locator('#sudoku');
  assert.equal(await sudoku.getAttribute('data-state'), 'idle');
  assert.equal(await page.locator('#text').getAttribute('data-state'), 'unavailable');
  await page.click('button[data-tab="text"]');
  assert.match(await text(page.locator('#text .unavailable')), /^Unavailable: no text model/);
  await page.click('button[data-tab="sudoku"]');

  // pasted with line breaks, as a grid
  await page.fill('#puzzle', EASY.match(/.{9}/g)!.join('\n'));
  // sjd solve's defaults: the rules on, the sampler that undoes what breaks them
  assert.equal(await page.inputValue('#sudoku select[name="sampler"]'), 'adaptive-remask');
  assert.equal(await page.inputValue('#sudoku select[name="rules"]'), 'true');
  await page.selectOption('#sudoku select[name="sampler"]', 'confidence');
  await page.selectOption('#sudoku select[name="rules"]', 'false');
  await page.fill('#sudoku input[name="nfe"]', '32');
  assert.equal(await page.inputValue('#sudoku input[name="retries"]'), `${DEFAULT_RETRIES}`);
  await page.evaluate(() => {
    const s = document.querySelector<HTMLElement>('#sudoku')!;
    const seen = new Set<string>();
    (window as unknown as { seen: Set<string> }).seen = seen;
    new MutationObserver(() => seen.add(s.dataset.steps!)).observe(s, {
      attributeFilter: ['data-steps'],
    });
  });
  await page.click('#sudoku button[type="submit"]');
  await page.waitForSelector('#sudoku[data-state="done"]', { timeout: 60_000 });
  const seen = await page.evaluate(() => (window as unknown as { seen: Set<string> }).seen.size);
  assert.ok(seen >= 5, `${seen} step counts seen while streaming`);
  assert.match(await text(page.locator('.verdict')), /^solved \(\d+ NFE\)$/);
  const digits = await page.locator('#board .cell').allTextContents();
  assert.equal(
    digits.join(''),
    '534678912672195348198342567859761423426853791713924856961537284287419635345286179',
  );
  assert.equal(await page.locator('#board .cell.clue').count(), EASY.replace(/0/g, '').length);
  assert.equal(await page.locator('#board .cell.broken').count(), 0);

  // replay: the first step shows the clues only; half-way some cells are still active
  const steps = Number(await sudoku.getAttribute('data-steps'));
  await page.locator('#sudoku .slider').fill('0');
  assert.equal(await page.locator('#board .cell.committed').count(), 0);
  assert.match(await text(page.locator('#sudoku .status')), /^step 0 of \d+/);
  await page.locator('#sudoku .slider').fill(String(Math.floor(steps / 2)));
  assert.ok((await page.locator('#board .cell.active').count()) > 0);
  const shot = join(shots, 'serve-sudoku.png');
  await page.screenshot({ path: shot });
  assert.ok(statSync(shot).size > 10_000);
  if (process.env.SJD_SERVE_SCREENSHOT) copyFileSync(shot, process.env.SJD_SERVE_SCREENSHOT);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the page generates a puzzle and shows why a bad one is refused', { skip }, async () => {
  const { page, errors } = await openPage();
  await page.selectOption('#difficulty', 'beyond-singles');
  await page.click('#generate');
  await page.waitForFunction(
    () => document.querySelector<HTMLInputElement>('#puzzle')!.value.length === 81,
  );
  assert.match(await page.inputValue('#puzzle'), /^[0-9]{81}$/);
  await page.fill('#puzzle', '123');
  await page.click('#sudoku button[type="submit"]');
  await page.waitForSelector('#sudoku[data-state="error"]');
  assert.equal(
    await text(page.locator('#sudoku .error')),
    'puzzle: puzzle has 3 characters, expected 81',
  );
  await page.fill('#puzzle', `55${EASY.slice(2)}`);
  await page.click('#sudoku button[type="submit"]');
  await page.waitForFunction(() =>
    document.querySelector('#sudoku .error')!.textContent!.includes('twice'),
  );
  assert.equal(await text(page.locator('#sudoku .error')), "puzzle: puzzle has '5' twice in row 1");
  assert.deepEqual(errors, []);
  await page.close();
});

test('the Text tab fills a template: given characters never change, holes stick once committed', {
  skip,
}, async () => {
  const withText = await startServer({ models: modelsFolder(true) });
  try {
    const { page, errors } = await openPage(`${withText.url}/?play=0`);
    await page.click('button[data-tab="text"]');
    const template = 'the ____ of the ___';
    await page.fill('#text input[name="infill"]', template);
    await page.fill('#text input[name="nfe"]', '16');
    await page.click('#text button[type="submit"]');
    await page.waitForSelector('#text[data-state="done"]', { timeout: 60_000 });
    const steps = Number(await page.locator('#text').getAttribute('data-steps'));
    assert.ok(steps >= 8, `${steps} steps`);
    const sticky = new Map<number, string>(); // a committed hole's character
    for (let k = 0; k < steps; k++) {
      await page.locator('#text .slider').fill(String(k));
      const spans = await page.evaluate(() =>
        [...document.querySelectorAll('#text .texts p span')].map((e) => [
          e.textContent,
          e.className,
        ]),
      );
      assert.equal(spans.length, template.length, `step ${k}`);
      spans.forEach(([c, cls], i) => {
        if (template[i] !== '_') {
          assert.deepEqual([c, cls], [template[i], 'given'], `step ${k}, position ${i}`);
        } else if (cls !== 'active') {
          assert.equal(sticky.get(i) ?? c, c, `step ${k}: the hole at ${i} moved`);
          sticky.set(i, c!);
        }
      });
    }
    assert.equal(sticky.size, template.split('').filter((c) => c === '_').length); // all filled
    await page.fill('#text input[name="infill"]', `${'a'.repeat(300)}_`);
    await page.click('#text button[type="submit"]');
    await page.waitForSelector('#text[data-state="error"]');
    assert.match(
      await text(page.locator('#text .error')),
      /^infill has 301 characters; the model takes at most \d+$/,
    );
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await withText.close();
  }
});

test('the Sequences tab samples a served sequences model from a template, and downloads the sequences', {
  skip,
}, async () => {
  // a user's sequences model beside the shipped Sudoku one: DNA of 12 bases, a tiny run
  const folder = modelsFolder(false);
  const dna = join(shots, 'dna.txt');
  writeFileSync(
    dna,
    `${Array.from({ length: 40 }, (_, i) => 'ACGTTGCAACGT'.slice(i % 4) + 'ACGT'.slice(0, i % 4)).join('\n')}\n`,
  );
  const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
  const t = spawnSync(
    process.execPath,
    [
      bin,
      'train',
      'sequences',
      '--data',
      dna,
      '--size',
      'tiny',
      '--steps',
      '2',
      '--out',
      join(folder, 'sequences'),
    ],
    { encoding: 'utf8', env: { ...process.env, SJD_THREADS: '1' } },
  );
  assert.equal(t.status, 0, t.stderr);
  const withSequences = await startServer({ models: folder });
  try {
    const { page, errors } = await openPage(`${withSequences.url}/?play=0`);
    assert.match(
      await text(page.locator('#models')),
      /; Sequences: sequences\/checkpoint\/ema\.safetensors \(SJD\)\.$/,
    );
    await page.click('button[data-tab="sequences"]');
    const template = 'ACG______TTA';
    await page.fill('#sequences input[name="infill"]', template);
    await page.fill('#sequences input[name="nfe"]', '8');
    await page.click('#sequences button[type="submit"]');
    await page.waitForSelector('#sequences[data-state="done"]', { timeout: 60_000 });
    const rows = await page.locator('#sequences .texts p').allTextContents();
    assert.equal(rows.length, 4);
    for (const r of rows) assert.match(r, /^ACG[ACGT]{6}TTA$/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('#sequences .download'),
    ]);
    assert.equal(download.suggestedFilename(), 'sequences.txt');
    assert.equal(readFileSync((await download.path())!, 'utf8'), `${rows.join('\n')}\n`);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await withSequences.close();
  }
});
