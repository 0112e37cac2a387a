// What importing the library costs: the command line loads the whole library at every start
// (`sjd --help` included), so the packages only some commands use load on first use
// (util/lazy-require.ts, and the web server's in serve/app.ts), and the import resolves none of
// them. Seen through a module resolve hook that names every module resolved.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from './tmp.js';

const LAZY = [
  'fastify',
  '@fastify/sse',
  '@fastify/static',
  'sharp',
  'pngjs',
  'cli-progress',
  '@stdlib/stats-base-dists-normal-cdf',
];

/** The packages (node_modules folder names) resolved while `code` runs as a module. */
function packagesResolved(code: string): Set<string> {
  const dir = tempDir('sjd-import-');
  const hook = join(dir, 'hook.mjs');
  const log = join(dir, 'resolved.txt');
  // written synchronously by the hooks' thread before each resolution returns (its stderr may
  // still be unflushed when the process exits)
  writeFileSync(log, '');
  writeFileSync(
    hook,
    `import { appendFileSync } from 'node:fs';
    export async function resolve(s, c, next) {
      const r = await next(s, c);
      appendFileSync(${JSON.stringify(log)}, 'resolved ' + r.url + '\\n');
      return r;
    }`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hook).href)});`,
  );
  const r = spawnSync(process.execPath, ['--import', register, '--input-type=module', '-e', code], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  const names = [
    ...readFileSync(log, 'utf8').matchAll(/^resolved .*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//gm),
  ];
  return new Set(names.map((m) => m[1]!));
}

test('importing the library resolves none of the packages that only some commands use', () => {
  const index = JSON.stringify(new URL('../src/index.js', import.meta.url).href);
  const atImport = packagesResolved(`await import(${index});`);
  assert.ok(
    atImport.has('zod'),
    `the hook sees the packages the library imports: ${[...atImport]}`,
  );
  for (const name of LAZY) assert.ok(!atImport.has(name), `${name} resolved at import`);
  // and the hook sees one when it is imported
  assert.ok(packagesResolved(`await import(${index}); await import('pngjs');`).has('pngjs'));
});
