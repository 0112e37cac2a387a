// Arrays of data size are never spread into a call's arguments: `Math.max(...xs)`,
// `Math.min(...xs)`, `out.push(...xs)` pass every element on the stack and throw "Maximum call
// stack size exceeded" past about 100k elements (util/fold.ts loops instead). A scan of src/
// finds any such spread (an array literal's is allowed: its size is in the source), and
// `sjd sample image --trace` at its default sizes, whose trace spans steps x n x pixels values,
// runs through.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import ts from 'typescript';
import { hasShippedImageModel } from '../src/tasks/image/index.js';
import { maxOf, minOf, pushAll } from '../src/util/fold.js';
import { tempDir } from './tmp.js';

const root = new URL('../..', import.meta.url).pathname;
const bin = join(root, 'bin', 'sjd.js');

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir)) {
    const f = join(dir, e);
    if (statSync(f).isDirectory()) yield* sources(f);
    else if (f.endsWith('.ts')) yield f;
  }
}

/** Calls that take their arguments on the stack one by one, where a spread array overflows it. */
const SPREAD_SINKS = /^(Math\.(max|min)|String\.from(CharCode|CodePoint)|.*\.(push|unshift))$/;

/** `file:line: call` for every spread of a non-literal array into a sink in `text`. */
export function spreadsIn(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && SPREAD_SINKS.test(n.expression.getText(sf))) {
      const spread = n.arguments.some(
        (a) => ts.isSpreadElement(a) && !ts.isArrayLiteralExpression(a.expression),
      );
      if (spread) {
        const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
        found.push(`${file}:${line}: ${n.getText(sf).replace(/\s+/g, ' ').slice(0, 80)}`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

test('the scan finds spreads into Math.max, Math.min and push, and allows literal arrays', () => {
  const code = [
    'Math.max(...xs);',
    'Math.min(0, ...xs.map((x) => x));',
    'out.push(...more);',
    'a.b.unshift(...c);',
    'Math.max(...[1, 2]);',
    'f(...xs);',
    'const ys = [...xs];',
  ].join('\n');
  assert.deepEqual(
    spreadsIn('x.ts', code).map((s) => s.split(':')[1]),
    ['1', '2', '3', '4'],
  );
});

test('src/ spreads no array into Math.max, Math.min, push or unshift', () => {
  const found: string[] = [];
  for (const f of sources(join(root, 'src')))
    found.push(...spreadsIn(relative(root, f), readFileSync(f, 'utf8')));
  assert.deepEqual(found, [], `use util/fold.ts (maxOf, minOf, pushAll):\n${found.join('\n')}`);
});

test('maxOf, minOf and pushAll take arrays far past the stack', () => {
  const big = Float64Array.from({ length: 2_000_000 }, (_, i) => (i * 7919) % 1_000_003);
  assert.equal(maxOf(big), 1_000_002);
  assert.equal(minOf(big), 0);
  assert.equal(maxOf([], 3), 3);
  assert.equal(maxOf([]), Number.NEGATIVE_INFINITY);
  assert.ok(Number.isNaN(maxOf([1, Number.NaN, 2])));
  const out = pushAll([1], Array.from(big.subarray(0, 500_000)));
  assert.equal(out.length, 500_001);
  assert.equal(out[500_000], big[499_999]);
});

test('sjd sample image --trace at its default sizes (-n 16, --nfe 64)', {
  skip: hasShippedImageModel() ? false : 'models/image is not in this checkout',
  timeout: 600_000,
}, () => {
  const dir = tempDir('sjd-trace-');
  const [grid, trace] = [join(dir, 'grid.png'), join(dir, 'trace.png')];
  const r = spawnSync(process.execPath, [bin, 'sample', 'image', '--out', grid, '--trace', trace], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /16 images of 28 x 28 x 1, .* 64 NFE/);
  assert.ok(PNG.sync.read(readFileSync(trace)).width > 0);
});
