// `npm ci` / `npm install` / `npm run build:native`: builds the addon with node-gyp against the
// libtorch that find-libtorch.mjs finds (and says which), unless the built addon is newer than
// every native source and was built against the same libtorch and switches (npm runs the install
// script twice here: for the package and for its self-link that provides `npx sjd`), or a
// prebuilt addon for this platform sits in prebuilds/ (node-gyp-build's layout, which the loader
// picks up too). build/libtorch.json records what the addon was built against, for `sjd info`.
// As an install script, a libtorch that cannot be found or an addon that does not build is a
// warning with the fix, not a failed install: sjd then runs on its TypeScript backend (models
// run, training needs libtorch). `--force` (npm run build:native) and SJD_REQUIRE_ADDON=1 (CI)
// make it an error.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBuild, libtorchBuild } from './find-libtorch.mjs';

const root = new URL('..', import.meta.url).pathname;
const addon = join(root, 'build/Release/sjd_torch.node');
const record = join(root, 'build/libtorch.json');
const force = process.argv.includes('--force');
const strict = force || process.env.SJD_REQUIRE_ADDON === '1';

/** No addon: an error when it was asked for, else a warning with the fix (exit 0). */
function noAddon(why) {
  if (strict) {
    console.error(`sjd: ${why}`);
    process.exit(1);
  }
  console.error(
    `sjd: warning: no libtorch addon (${why}). sjd runs on its TypeScript backend: models run, training needs libtorch. Once libtorch is installed (apt-get install libtorch-dev), run 'npm rebuild sjd'.`,
  );
  process.exit(0);
}

const prebuilt = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
if (!force && existsSync(prebuilt) && readdirSync(prebuilt).some((f) => f.endsWith('.node'))) {
  console.log(`sjd: using the prebuilt addon in ${prebuilt}`);
  process.exit(0);
}

let build;
try {
  build = libtorchBuild();
} catch (e) {
  noAddon(e.message);
}
// what the addon is built against: the found libtorch and the switches that change the build
const want = JSON.stringify({ how: build.how, include: build.include, libdir: build.libdir, defines: build.defines });

const sources = [join(root, 'binding.gyp'), ...readdirSync(join(root, 'native')).map((f) => join(root, 'native', f))];
let newest = 0;
for (const f of sources) newest = Math.max(newest, statSync(f).mtimeMs);
const built = existsSync(record) ? JSON.parse(readFileSync(record, 'utf8')) : null;
const fresh =
  existsSync(addon) &&
  statSync(addon).mtimeMs > newest &&
  built !== null &&
  JSON.stringify({ how: built.how, include: built.include, libdir: built.libdir, defines: built.defines }) === want;

if (fresh && !force) {
  console.log(`sjd: native addon is up to date (${describeBuild(build)})`);
} else {
  console.log(`sjd: building the addon against ${describeBuild(build)}`);
  // npm tells its scripts where its bundled node-gyp is; outside npm, node-gyp must be on PATH.
  const gyp = process.env.npm_config_node_gyp;
  const cmd = gyp ? `"${process.execPath}" "${gyp}" rebuild -j max` : 'node-gyp rebuild -j max';
  try {
    execSync(cmd, { cwd: root, stdio: 'inherit' });
  } catch {
    noAddon('building the libtorch addon failed (see the output above)');
  }
  writeFileSync(record, `${JSON.stringify(build, null, 2)}\n`);
}
