// sjd in a browser (`sjd/web`, src/web/index.ts, bundled by scripts/build-web.mjs into
// web/dist/sjd-web.js): docs/library.md's browser example, served by a plain static file server
// with no sjd server, loads the shipped Sudoku model by URL and solves a held-out puzzle in
// headless Chromium on the TypeScript backend; the bundle reaches no Node-only code on that path.
// Skipped, saying so, where chromium is not installed.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { chromium } from 'playwright-core';
import { tempDir } from './tmp.js';

const CHROMIUM = '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is not installed (apt-get install chromium): the browser test needs it`;
const root = fileURLToPath(new URL('../..', import.meta.url));
const PUZZLE = '780000000500009100000010700802500003010300980070000000620800000003000005000006009';
const SOLUTION =
  '781253496564789132239614758892571643415362987376948521627895314943127865158436279';

/** docs/library.md's browser example, as a user would save it. */
function docsPage(): string {
  const md = readFileSync(join(root, 'docs', 'library.md'), 'utf8');
  const at = md.indexOf('## In a browser');
  const block = /```html\n([\s\S]*?)\n```/.exec(md.slice(at));
  assert.ok(at >= 0 && block, "docs/library.md has no browser example under '## In a browser'");
  return block[1]!;
}

test('a static page solves a puzzle with the shipped model in Chromium, no sjd server', {
  skip,
}, async () => {
  const site = tempDir('sjd-web-');
  cpSync(join(root, 'web', 'dist', 'sjd-web.js'), join(site, 'sjd-web.js'));
  cpSync(join(root, 'models', 'sudoku'), join(site, 'models', 'sudoku'), { recursive: true });
  const page = docsPage();
  assert.ok(page.includes(PUZZLE), 'the example solves the puzzle this test knows');
  writeFileSync(join(site, 'index.html'), page);
  const server = Fastify();
  await server.register(fastifyStatic, { root: site });
  const url = await server.listen({ host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    await tab.goto(`${url}/index.html`);
    const out = tab.locator('#out');
    await tab.waitForFunction(
      () => document.getElementById('out')?.textContent !== 'solving...',
      null,
      {
        timeout: 240_000,
      },
    );
    assert.deepEqual(errors, []);
    assert.match(
      (await out.textContent()) ?? '',
      new RegExp(`^${SOLUTION} \\(\\d+ network passes\\)$`),
    );
  } finally {
    await browser.close();
    await server.close();
  }
});
