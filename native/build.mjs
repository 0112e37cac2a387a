// `npm ci` / `npm run build:native`: builds the addon with node-gyp unless the built addon is
// newer than every native source and was built against the same LIBTORCH (npm runs the
// install script twice here: for the package and for its self-link that provides `npx sjd`).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const addon = join(root, 'build/Release/sjd_torch.node');
const stamp = join(root, 'build/libtorch.stamp');
// the stamp names what the addon was built against (and whether c10d/Gloo were left out)
const want = `${process.env.LIBTORCH ?? 'debian'}${process.env.SJD_DISTRIBUTED === '0' ? ' without distributed' : ''}${process.env.SJD_FUSED_ADAMW === '0' ? ' without fused AdamW' : ''}`;
const force = process.argv.includes('--force');

const sources = [join(root, 'binding.gyp'), ...readdirSync(join(root, 'native')).map((f) => join(root, 'native', f))];
const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
const fresh =
  existsSync(addon) &&
  statSync(addon).mtimeMs > newest &&
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8') === want;

if (fresh && !force) {
  console.log('sjd: native addon is up to date');
} else {
  // npm tells its scripts where its bundled node-gyp is; outside npm, node-gyp must be on PATH.
  const gyp = process.env.npm_config_node_gyp;
  const cmd = gyp ? `"${process.execPath}" "${gyp}" rebuild -j max` : 'node-gyp rebuild -j max';
  try {
    execSync(cmd, { cwd: root, stdio: 'inherit' });
  } catch {
    console.error('sjd: building the libtorch addon failed (see the output above; is libtorch-dev installed?)');
    process.exit(1);
  }
  writeFileSync(stamp, want);
}
