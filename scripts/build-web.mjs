#!/usr/bin/env node
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Bundles sjd for browsers with esbuild, each an ES module holding the library on its TypeScript
// backend (the WebAssembly kernels inside it as base64), Node's modules replaced by the
// stand-ins of scripts/web-shims/node.mjs, and SJD_BACKEND set to js so that no addon is looked
// for: web/dist/sjd-web.js, the library (`sjd/web`, src/web/index.ts); web/dist/sjd-site.js,
// the static site's one script (web/site-entry.js: the page, and its Worker running sjd). Run by
// `npm run build`.
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shim = join(root, 'scripts', 'web-shims', 'node.mjs');
const BUNDLES = {
  'sjd-web.js': join(root, 'src', 'web', 'index.ts'),
  'sjd-site.js': join(root, 'web', 'site-entry.js'),
};
for (const [name, entry] of Object.entries(BUNDLES)) {
  const outfile = join(root, 'web', 'dist', name);
  await build({
    entryPoints: [entry],
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
}
