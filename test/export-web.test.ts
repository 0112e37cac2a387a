// `sjd export-web DIR`, the page as a static site with no server: the command writes the page,
// one script and the shipped models (a given models folder's, a missing task shown unavailable),
// replaces a site it wrote and refuses a user's folder in one line, untouched. The site, served
// by a plain static file server (Python's http.server: no sjd code on the serving side), samples
// in headless Chromium on the TypeScript backend in a Web Worker: a typed puzzle solved step by
// step, text from a template (a prompt, then holes) with the given characters kept and every hole
// filled, an image grid drawn, a long run stopped (its steps stop coming) and a new run answered
// after it, and a bad template refused with the server's one-line reason. Skipped, saying so,
// where chromium is not installed.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { tempDir } from './tmp.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install chromium): the browser test needs it`;
const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const shipped = new URL('../../models', import.meta.url).pathname;
const sjd = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
    timeout: 120_000,
  });
const PUZZLE = '780000000500009100000010700802500003010300980070000000620800000003000005000006009';
const SOLUTION =
  '781253496564789132239614758892571643415362987376948521627895314943127865158436279';

const box = tempDir('sjd-export-web-');
const site = join(box, 'site');

test('sjd export-web writes the page, one script and the models; refuses a folder of the user', () => {
  const r = sjd(['export-web', site]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^sudoku: .*models\/sudoku$/m);
  assert.match(r.stdout, /^wrote .*site; serve it from any static file host/m);
  assert.deepEqual(readdirSync(site).sort(), [
    'index.html',
    'models',
    'sjd-site.js',
    'sjd-site.json',
    'style.css',
  ]);
  const page = readFileSync(join(site, 'index.html'), 'utf8');
  assert.match(page, /<script type="module" src="sjd-site.js"><\/script>/);
  assert.doesNotMatch(page, /dist\/main\.js/);
  assert.deepEqual(JSON.parse(readFileSync(join(site, 'models', 'models.json'), 'utf8')), {
    sudoku: { folder: 'sudoku/' },
    text: { folder: 'text/' },
    image: { folder: 'image/' },
  });
  for (const task of ['sudoku', 'text', 'image'])
    assert.deepEqual(
      readFileSync(join(site, 'models', task, 'model.safetensors')),
      readFileSync(join(shipped, task, 'model.safetensors')),
    );
  // its own site is replaced without --force
  assert.equal(sjd(['export-web', site]).status, 0);

  // a folder of the user's: one line, exit 1, untouched; --force replaces it
  const mine = join(box, 'mine');
  mkdirSync(mine);
  writeFileSync(join(mine, 'notes.txt'), 'mine');
  const refused = sjd(['export-web', mine]);
  assert.equal(refused.status, 1);
  assert.match(
    refused.stderr,
    /^sjd: .*mine is not empty and is not a static site written by sjd; choose another --out or pass --force to replace it\n$/,
  );
  assert.equal(readFileSync(join(mine, 'notes.txt'), 'utf8'), 'mine');
  assert.equal(sjd(['export-web', mine, '--force']).status, 0);
  assert.ok(!existsSync(join(mine, 'notes.txt')));

  // a models folder with the Sudoku model alone: the others unavailable, with the reason
  const models = join(box, 'models');
  cpSync(join(shipped, 'sudoku'), join(models, 'sudoku'), { recursive: true });
  const some = sjd(['export-web', join(box, 'some'), '--models', models]);
  assert.equal(some.status, 0, some.stderr);
  assert.match(some.stdout, /^text: unavailable \(no text model in text\/\)$/m);
  assert.deepEqual(
    JSON.parse(readFileSync(join(box, 'some', 'models', 'models.json'), 'utf8')).image,
    {
      unavailable: 'no image model in image/',
    },
  );

  // a models folder that is not one; a broken model: refused in one line, nothing written
  const none = sjd(['export-web', join(box, 'none'), '--models', join(box, 'nowhere')]);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /^sjd: --models .*nowhere: no such folder\n$/);
  writeFileSync(join(models, 'sudoku', 'model.safetensors'), 'not weights');
  const broken = sjd(['export-web', join(box, 'broken'), '--models', models]);
  assert.equal(broken.status, 1);
  assert.match(broken.stderr, /^sjd: sudoku model .*sudoku: [^\n]*\n$/);
  assert.ok(!existsSync(join(box, 'broken')));
});

let server: ChildProcess;
let url: string;
let browser: Browser;

before(async () => {
  if (skip) return;
  if (!existsSync(join(site, 'index.html'))) assert.equal(sjd(['export-web', site]).status, 0);
  // a plain static file server, Python's, on a free port it prints
  server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '-d', site], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /port (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}/`);
    });
    server.on('exit', (code) => reject(new Error(`http.server exited (${code})`)));
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
after(async () => {
  await browser?.close();
  server?.kill();
});

async function openSite(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1000, height: 820 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const idle = new URL(url); // without the solve the page plays on load
  idle.searchParams.set('play', '0');
  await page.goto(idle.href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, errors };
}

const steps = async (page: Page, panel: string) =>
  Number(await page.locator(panel).getAttribute('data-steps'));

test('the static site solves a puzzle in the browser, step by step, with no sjd server', {
  skip,
}, async () => {
  const { page, errors } = await openSite();
  for (const task of ['sudoku', 'text', 'image'])
    assert.equal(await page.locator(`#${task}`).getAttribute('data-state'), 'idle', task);
  await page.fill('#puzzle', PUZZLE);
  await page.click('#sudoku button[type="submit"]');
  await page.waitForSelector('#sudoku[data-state="done"]', { timeout: 120_000 });
  assert.ok((await steps(page, '#sudoku')) > 2);
  assert.match((await page.locator('#verdict').textContent()) ?? '', /^solved/);
  const board = await page.evaluate(() =>
    [...document.querySelectorAll('#board .cell')].map((c) => c.textContent?.trim()).join(''),
  );
  assert.equal(board, SOLUTION);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the static site samples text from a template and an image grid; a run can be stopped', {
  skip,
}, async () => {
  const { page, errors } = await openSite();
  await page.click('button[data-tab="text"]');
  const template = 'in the beginning ______ of the _____';
  await page.fill('#text input[name="infill"]', template);
  await page.fill('#text input[name="nfe"]', '16');
  await page.click('#text button[type="submit"]');
  await page.waitForSelector('#text[data-state="done"]', { timeout: 120_000 });
  const row = await page.evaluate(() =>
    [...document.querySelectorAll('#text .texts p span')].map((e) => [e.textContent, e.className]),
  );
  assert.equal(row.length, template.length);
  row.forEach(([c, cls], i) => {
    if (template[i] !== '_') assert.deepEqual([c, cls], [template[i], 'given'], `position ${i}`);
    else assert.notEqual(cls, 'active', `the hole at ${i} is filled`);
  });

  // a long run stopped: its steps stop coming; the next run is answered
  await page.fill('#text input[name="infill"]', '');
  await page.fill('#text input[name="nfe"]', '1024');
  await page.click('#text button[type="submit"]');
  await page.waitForFunction(
    () => Number(document.querySelector('#text')?.getAttribute('data-steps')) >= 3,
    null,
    { timeout: 60_000 },
  );
  await page.click('#text .stop');
  assert.equal(await page.locator('#text').getAttribute('data-state'), 'stopped');
  const stopped = await steps(page, '#text');
  await page.waitForTimeout(1500);
  assert.equal(await steps(page, '#text'), stopped, 'no step arrives after Stop');
  assert.ok(stopped < 1024);
  await page.fill('#text input[name="nfe"]', '8');
  await page.click('#text button[type="submit"]');
  await page.waitForSelector('#text[data-state="done"]', { timeout: 120_000 });

  // a bad template: the server's one-line reason
  await page.fill('#text input[name="infill"]', `${'a'.repeat(300)}_`);
  await page.click('#text button[type="submit"]');
  await page.waitForSelector('#text[data-state="error"]');
  assert.match(
    (await page.locator('#text .error').textContent()) ?? '',
    /^infill has 301 characters; the model takes at most \d+$/,
  );

  await page.click('button[data-tab="image"]');
  await page.fill('#image input[name="nfe"]', '16');
  await page.click('#image button[type="submit"]');
  await page.waitForSelector('#image[data-state="done"]', { timeout: 120_000 });
  const grid = await page.evaluate(() =>
    [...document.querySelectorAll('#image .images canvas')].map((c) => {
      const canvas = c as HTMLCanvasElement;
      const px = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let lit = 0;
      for (let i = 0; i < px.length; i += 4) if (px[i]! > 32) lit++;
      return { w: canvas.width, h: canvas.height, lit };
    }),
  );
  assert.equal(grid.length, 4); // the page's default: four images
  for (const g of grid)
    assert.ok(g.lit > 0 && g.lit < g.w * g.h, `an image drawn: ${JSON.stringify(g)}`);
  assert.deepEqual(errors, []);
  await page.close();
});
