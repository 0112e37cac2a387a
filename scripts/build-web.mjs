#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Bundles sjd for browsers (`sjd/web`, src/web/index.ts) into web/dist/sjd-web.js with esbuild:
// one ES module holding the library on its TypeScript backend (the WebAssembly kernel inside it
// as base64), Node's modules replaced by the stand-ins of scripts/web-shims/node.cjs, and
// SJD_BACKEND set to js so that no addon is looked for. Run by `npm run build`.
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shim = join(root, 'scripts', 'web-shims', 'node.mjs');
const outfile = join(root, 'web', 'dist', 'sjd-web.js');
await build({
  entryPoints: [join(root, 'src', 'web', 'index.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: "globalThis.process ??= { env: { SJD_BACKEND: 'js' }, platform: 'browser' };" },
  plugins: [
    {
      name: 'node-shims',
      setup(b) {
        b.onResolve(
          {
            filter:
              /^node:|^(fs|path|os|util|crypto|module|url|child_process|worker_threads|events|stream|readline|zlib|http|https|net|timers)(\/.*)?$/,
          },
          () => ({ path: shim }),
        );
      },
    },
  ],
});
console.log(`build-web: wrote ${outfile.slice(root.length + 1)}`);
