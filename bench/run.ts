// `npm run bench [-- --json] [-- --only NAME] [-- --device cuda]`: runs every registered
// benchmark and prints each figure as a ratio to its reference (PyTorch in Debian's
// python3-torch, or SJD_PYTHON's, same threads, same device).
import { parseArgs } from 'node:util';
import {
  defaultDevice,
  getNumThreads,
  setDefaultDevice,
  torchVersion,
} from '../src/torch/index.js';
import './browser.js';
import './data.js';
import './distributed.js';
import './gemm.js';
import './image.js';
import './js-backend.js';
import './train-step.js';
import './process-cost.js';
import './profile.js';
import './serve-load.js';
import './sudoku.js';
import './text.js';
import { benches } from './registry.js';

const usage = () =>
  [
    'usage: npm run bench [-- --json] [-- --only NAME ...] [-- --device cpu|cuda|cuda:N]',
    '  --json          one JSON object per line',
    '  --only NAME     run this benchmark (repeatable)',
    '  --device NAME   where tensors live (default: cpu)',
    '  -h, --help      this help',
    `benchmarks: ${[...benches.keys()].join(', ')}`,
  ].join('\n');

let values: { json?: boolean; only?: string[]; device?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      device: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (e) {
  console.error(`bench: ${(e as Error).message.split('\n')[0]} (--help lists the options)`);
  process.exit(2);
}
if (values.help) {
  console.log(usage());
  process.exit(0);
}
if (values.device !== undefined) {
  try {
    setDefaultDevice(values.device);
  } catch (e) {
    console.error(`bench: ${(e as Error).message}`);
    process.exit(2);
  }
}
const names = values.only ?? [...benches.keys()];
for (const n of names) {
  if (!benches.has(n)) {
    console.error(`bench: unknown benchmark '${n}' (known: ${[...benches.keys()].join(', ')})`);
    process.exit(2);
  }
}
if (!values.json)
  console.log(
    `sjd bench: libtorch ${torchVersion().torch}, ${getNumThreads()} threads, device ${defaultDevice()}; ratio = sjd / reference`,
  );
/** Extra figures: 3 significant digits below 10, else one decimal. */
const fmt = (v: number) => (Math.abs(v) >= 10 ? v.toFixed(1) : v.toPrecision(3));

for (const name of names) {
  const bench = benches.get(name)!;
  const result = await bench.run();
  const rows =
    result instanceof Map
      ? [...result].map(([k, r]) => [`${name}-${k}`, r] as const)
      : [[name, result] as const];
  for (const [label, r] of rows) {
    const ratio = r.sjd_ms / r.ref_ms;
    if (values.json) {
      console.log(JSON.stringify({ bench: label, ...r, ratio, reference: bench.reference }));
    } else {
      const extra = Object.entries(r)
        .filter(([k]) => !['sjd_ms', 'ref_ms'].includes(k))
        .map(([k, v]) => `${k} ${fmt(Number(v))}`)
        .join(', ');
      console.log(
        `${label.padEnd(22)} sjd ${r.sjd_ms.toFixed(2)} ms  ref ${r.ref_ms.toFixed(2)} ms  ratio ${ratio.toFixed(3)}  ${extra}`,
      );
    }
  }
}
