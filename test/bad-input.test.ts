// A corpus of bad inputs across every command, run as a careless user would: each gets one
// line on stderr starting `sjd: ` (no stack trace) and a non-zero exit, and none deletes,
// overwrites or half-writes a file: the sandbox the commands point at is byte-for-byte the same
// after every case (its users' files, a run, a model folder), and nothing new appears in it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { formatSudokuCsv } from '../src/tasks/sudoku/puzzle/csv.js';
import { generatePuzzles } from '../src/tasks/sudoku/puzzle/generator.js';
import * as torch from '../src/torch/index.js';
import { tempDir } from './tmp.js';

const bin = new URL('../../bin/sjd.js', import.meta.url).pathname;
const sjd = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SJD_THREADS: '1', ...env },
    timeout: 60_000, // a hang is a failure, not a stuck suite
  });

const box = tempDir('sjd-bad-input-');
/** A 2 GB binary file, kept out of the box (whose every file is hashed after each case). */
const big = tempDir('sjd-bad-input-big-');
const zeros = join(big, 'zeros.bin');
/** A CIFAR-10 batch file past 2 GiB (a whole number of records of 3,073 bytes). */
const cifarHuge = join(big, 'data_batch_1.bin');
const CIFAR_BYTES = 3073 - (2 ** 31 % 3073);
const p = (...parts: string[]) => join(box, ...parts);
const PUZZLE = '000000010400000000020000000000050407008000300001090000300400200050100000000806000';
const ROW_CLASH = `11${'0'.repeat(79)}`; // two 1s in row 1
const UNSOLVABLE = {
  square: '009028700806004005003000004600000000020713450000000002300000500900400807001250300',
  box: '090300001000080046000000800405060030003275600060010904001000000580020000200007060',
  row: '900100004014030800003000090000708001800003000000000030021000070009040500500016003',
};

/** A grey PNG of w x h black pixels (its rows compress to almost nothing). */
function blankPng(w: number, h: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth; colour type 0 (grey), no interlace
  const rows = deflateSync(Buffer.alloc((w + 1) * h), { level: 9 });
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every path under the sandbox with the hash of its bytes. */
function snapshot(dir = box): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir)) {
    const full = join(dir, e);
    if (lstatSync(full).isSymbolicLink()) out[full] = `-> ${readlinkSync(full)}`;
    else if (statSync(full).isDirectory()) {
      out[`${full}/`] = '';
      Object.assign(out, snapshot(full));
    } else out[full] = createHash('sha256').update(readFileSync(full)).digest('hex');
  }
  return out;
}

/** A model folder with this config.json (and weights that are not weights). */
function modelFolder(name: string, config: unknown): void {
  mkdirSync(p('models', name), { recursive: true });
  const text = typeof config === 'string' ? config : JSON.stringify(config);
  writeFileSync(p('models', name, 'config.json'), text);
  writeFileSync(p('models', name, 'model.safetensors'), 'not weights');
}

let before_: Record<string, string>;

before(() => {
  mkdirSync(p('mine'));
  writeFileSync(p('mine', 'notes.txt'), 'a user file that must survive\n');
  writeFileSync(p('afile.txt'), 'not a folder\n');
  writeFileSync(p('grid.png'), 'an existing file\n');
  mkdirSync(p('empty'));
  symlinkSync(p('mine'), p('link')); // the same folder by another path
  const g = generatePuzzles(24, { seed: 5 });
  writeFileSync(
    p('puzzles.csv'),
    formatSudokuCsv(g.map((x) => ({ puzzle: x.puzzle, solution: x.solution }))),
  );
  writeFileSync(
    p('quizzes.csv'),
    formatSudokuCsv(g.map((x) => ({ puzzle: x.puzzle, solution: null }))),
  );
  writeFileSync(p('garbage.csv'), 'quizzes,solutions\nhello,world\n');
  writeFileSync(p('header-only.csv'), 'quizzes,solutions\n');
  writeFileSync(p('unsolvable.csv'), `puzzle\n${PUZZLE}\n${UNSOLVABLE.row}\n`);
  // a puzzle repeating a digit beside a valid solution (the fault was put in the solution's column)
  const [pair] = generatePuzzles(1, { seed: 9 });
  const bad = pair!.puzzle.slice();
  bad[0] = pair!.solution[0]!;
  bad[1] = pair!.solution[0]!; // the same digit twice in row 1
  writeFileSync(p('repeat.csv'), `puzzle,solution\n${bad.join('')},${pair!.solution.join('')}\n`);
  mkdirSync(p('classless', 'a'), { recursive: true }); // class folders, all empty
  mkdirSync(p('dangling'));
  symlinkSync(p('nowhere.png'), p('dangling', 'x.png'));
  mkdirSync(p('huge'));
  writeFileSync(p('huge', 'a.png'), blankPng(16000, 16000));
  writeFileSync(p('dna.txt'), `${'ACGTACGTACGT\n'.repeat(20)}`);
  writeFileSync(p('utf16.txt'), Buffer.from('\ufeffthe quick brown fox', 'utf16le'));
  writeFileSync(
    p('latin1.txt'),
    Buffer.from('caf\u00e9 cr\u00e8me br\u00fbl\u00e9e '.repeat(500), 'latin1'),
  );
  writeFileSync(cifarHuge, '');
  truncateSync(cifarHuge, 2 ** 31 + CIFAR_BYTES); // past 2 GiB, sparse
  writeFileSync(zeros, '');
  truncateSync(zeros, 2 ** 31); // 2 GB of NUL bytes, sparse: nothing written to the disk
  const t = sjd([
    'train',
    'sudoku',
    '--size',
    'tiny',
    '--steps',
    '2',
    '--out',
    p('run'),
    '--data',
    p('puzzles.csv'),
    '--eval-data',
    p('puzzles.csv'),
    '--eval-size',
    '2',
    '--eval-nfe',
    '2',
  ]);
  assert.equal(t.status, 0, t.stderr);
  const e = sjd(['export', '--run', p('run'), '--out', p('exported')]);
  assert.equal(e.status, 0, e.stderr);
  const shipped = JSON.parse(
    readFileSync(new URL('../../models/sudoku/config.json', import.meta.url), 'utf8'),
  );
  modelFolder('deep', { ...shipped, model: { ...shipped.model, depth: 1e9 } });
  modelFolder('negative', { ...shipped, model: { ...shipped.model, width: -1 } });
  modelFolder('bert', { ...shipped, process: { name: 'bert' } });
  modelFolder('notjson', '{ not json');
  modelFolder('corrupt', shipped);
  // the shipped weights with one tensor turned to NaN (refused at load, naming it)
  mkdirSync(p('models', 'nan'), { recursive: true });
  writeFileSync(p('models', 'nan', 'config.json'), JSON.stringify(shipped));
  const weights = torch.loadSafetensors(
    new URL('../../models/sudoku/model.safetensors', import.meta.url).pathname,
  ).tensors;
  const first = Object.keys(weights).sort()[0]!;
  weights[first] = weights[first]!.mul(Number.NaN);
  torch.saveSafetensors(p('models', 'nan', 'model.safetensors'), weights);
  // weights that are a folder; a tensor whose bytes disagree with its shape
  modelFolder('wfolder', shipped);
  rmSync(p('models', 'wfolder', 'model.safetensors'));
  mkdirSync(p('models', 'wfolder', 'model.safetensors'));
  modelFolder('shape', shipped);
  const header = JSON.stringify({ w: { dtype: 'F32', shape: [128], data_offsets: [0, 256] } });
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(header.length));
  writeFileSync(
    p('models', 'shape', 'model.safetensors'),
    Buffer.concat([len, Buffer.from(header), Buffer.alloc(256)]),
  );
  // an image model whose config has a key the U-Net does not read (a transformer's)
  const image = JSON.parse(
    readFileSync(new URL('../../models/image/config.json', import.meta.url), 'utf8'),
  );
  modelFolder('unet', { ...image, model: { ...image.model, rotary: true } });
  before_ = snapshot();
});

/** A case: its name, the arguments, what the one line says, and the environment it adds. */
type Case = [string, () => string[], RegExp, Record<string, string>?];

const cases: Case[] = [
  // the program and its global flags, and the environment variables that stand for them
  ['threads 0', () => ['--threads', '0', 'info'], /--threads.*expected an integer/],
  [
    'threads above the cores',
    () => ['--threads', '1000', 'info'],
    /--threads.*expected an integer in \[1, \d+\]/,
  ],
  ['threads not a number', () => ['--threads', 'abc', 'info'], /--threads/],
  ...['abc', '0', '-1', '999'].map(
    (v): Case => [
      `SJD_THREADS=${v}`,
      () => ['info'],
      new RegExp(
        `'${v}' from env 'SJD_THREADS' is invalid\\. expected an integer in \\[1, \\d+\\]$`,
      ),
      { SJD_THREADS: v },
    ],
  ),
  [
    'SJD_THREADS=0 before a solve',
    () => ['solve', PUZZLE, '--nfe', '8'],
    /SJD_THREADS/,
    { SJD_THREADS: '0' },
  ],
  [
    'SJD_DEVICE unknown',
    () => ['info'],
    /^sjd: SJD_DEVICE: device 'tpu': use cpu, cuda or cuda:N$/,
    { SJD_DEVICE: 'tpu' },
  ],
  [
    'init with resume',
    () => ['train', 'sudoku', '--init', p('run'), '--resume', '--out', p('run')],
    /--init starts a new run; --resume continues one/,
  ],
  [
    'init from nowhere',
    () => ['train', 'sudoku', '--size', 'tiny', '--init', p('nowhere'), '--out', p('r1')],
    /--init .*nowhere: not a model or run folder \(no config.json\)/,
  ],
  ['device unknown', () => ['--device', 'tpu', 'info'], /device 'tpu': use cpu, cuda or cuda:N/],
  [
    'device cuda on a CPU build',
    () => ['train', 'sudoku', '--device', 'cuda', '--out', p('r1')],
    /device 'cuda': this libtorch \([\d.]+\) has no CUDA/,
  ],
  ['device cuda:x', () => ['demo', '--device', 'cuda:x'], /Invalid device string: 'cuda:x'/],
  ['unknown command', () => ['nosuch'], /unknown command 'nosuch'/],
  ['unknown demo', () => ['demo', 'chess'], /unknown demo 'chess'/],
  ['demo count 0', () => ['demo', '--count', '0'], /--count/],
  ['demo missing model', () => ['demo', '--model', p('nowhere')], /not a model or run folder/],
  // train sudoku
  ['train without --out', () => ['train', 'sudoku'], /required option '--out <dir>'/],
  [
    'unknown size',
    () => ['train', 'sudoku', '--out', p('r1'), '--size', 'huge'],
    /--size.*expected one of/,
  ],
  [
    'unknown process',
    () => ['train', 'sudoku', '--out', p('r1'), '--process', 'bert'],
    /expected one of masked, continuous, hybrid, sjd/,
  ],
  [
    'unknown blend',
    () => ['train', 'sudoku', '--out', p('r1'), '--blend', 'nope'],
    /--blend.*expected one of identity/,
  ],
  [
    'blend on hybrid',
    () => ['train', 'sudoku', '--out', p('r1'), '--process', 'hybrid', '--blend', 'sudoku'],
    /the hybrid process has no blending matrix W/,
  ],
  [
    'eta on masked',
    () => ['train', 'sudoku', '--out', p('r1'), '--process', 'masked', '--eta', '0.5'],
    /the masked process has no eta/,
  ],
  [
    'gauss1d on 81 cells is fine but blur2d is not',
    () => [
      'train',
      'sudoku',
      '--out',
      p('r1'),
      '--blend',
      'blur2d',
      '--data',
      p('puzzles.csv'),
      '--eval-data',
      p('puzzles.csv'),
    ],
    /blur2d blend needs positions on a 2-D grid/,
  ],
  ['negative sigma', () => ['train', 'sudoku', '--out', p('r1'), '--sigma-w', '-1'], /--sigma-w/],
  [
    "sigma_W given to images (the blur's bandwidth is sigma_B)",
    () => ['train', 'image', '--out', p('r1'), '--sigma-w', '2'],
    /--sigma-w.* the bandwidth here is sigma_B of the blur B of pixel values: use --sigma-b$/,
  ],
  [
    'sigma_B given to Sudoku (its W has sigma_W)',
    () => ['train', 'sudoku', '--out', p('r1'), '--sigma-b', '2'],
    /--sigma-b.* the bandwidth here is sigma_W of W: use --sigma-w$/,
  ],
  ['eta above 1', () => ['train', 'sudoku', '--out', p('r1'), '--eta', '2'], /--eta/],
  ['zero steps', () => ['train', 'sudoku', '--out', p('r1'), '--steps', '0'], /--steps/],
  ['negative seed', () => ['train', 'sudoku', '--out', p('r1'), '--seed', '-1'], /--seed/],
  [
    'unknown schedule',
    () => ['train', 'sudoku', '--out', p('r1'), '--schedule', 'cubic'],
    /expected one of linear, rank/,
  ],
  [
    'missing data file',
    () => ['train', 'sudoku', '--out', p('r1'), '--data', p('none.csv')],
    /none\.csv/,
  ],
  [
    'a folder as data',
    () => ['train', 'sudoku', '--out', p('r1'), '--data', p('mine')],
    /mine is a folder/,
  ],
  [
    'garbage data',
    () => ['train', 'sudoku', '--out', p('r1'), '--data', p('garbage.csv')],
    /garbage\.csv/,
  ],
  [
    'a user folder as --out',
    () => ['train', 'sudoku', '--out', p('mine'), '--data', p('puzzles.csv')],
    /mine is not empty/,
  ],
  ['a file as --out', () => ['train', 'sudoku', '--out', p('afile.txt')], /afile\.txt is a file/],
  [
    'an unwritable --out',
    () => ['train', 'sudoku', '--out', '/proc/sjd-x', '--data', p('puzzles.csv')],
    /cannot write \/proc\/sjd-x/,
  ],
  [
    'a run over a run',
    () => ['train', 'sudoku', '--out', p('run'), '--data', p('puzzles.csv')],
    /already holds a run; pass --resume/,
  ],
  [
    'resume nothing',
    () => ['train', 'sudoku', '--out', p('empty'), '--resume'],
    /--resume: no checkpoint in/,
  ],
  [
    'unknown eval sampler',
    () => ['train', 'sudoku', '--out', p('r1'), '--eval-sampler', 'nope'],
    /--eval-sampler.*expected one of/,
  ],
  ['eval size 0', () => ['train', 'sudoku', '--out', p('r1'), '--eval-size', '0'], /--eval-size/],
  [
    'unknown anchors',
    () => ['train', 'sudoku', '--out', p('r1'), '--anchors', 'nope'],
    /--anchors/,
  ],
  // train text
  [
    'text: unknown size',
    () => ['train', 'text', '--out', p('r1'), '--size', 'huge'],
    /--size.*expected one of/,
  ],
  [
    'text: missing corpus',
    () => ['train', 'text', '--out', p('r1'), '--data', p('nowhere')],
    /nowhere/,
  ],
  [
    'text: a file as corpus',
    () => ['train', 'text', '--out', p('r1'), '--data', p('afile.txt')],
    /afile\.txt/,
  ],
  [
    'text: blend on continuous',
    () => ['train', 'text', '--out', p('r1'), '--process', 'continuous', '--blend', 'gauss1d'],
    /the continuous process has no blending matrix W/,
  ],
  [
    'text: a user folder as --out',
    () => ['train', 'text', '--out', p('mine'), '--size', 'tiny'],
    /mine is not empty/,
  ],
  // export
  [
    'export a missing run',
    () => ['export', '--run', p('nowhere'), '--out', p('m1')],
    /no such folder/,
  ],
  [
    'export a model folder',
    () => [
      'export',
      '--run',
      new URL('../../models/sudoku', import.meta.url).pathname,
      '--out',
      p('m1'),
    ],
    /is an exported model, not a run folder/,
  ],
  [
    'export onto the run',
    () => ['export', '--run', p('run'), '--out', p('run')],
    /would overwrite the run/,
  ],
  [
    'export into the run',
    () => ['export', '--run', p('run'), '--out', p('run', 'model')],
    /would overwrite the run/,
  ],
  [
    'export onto a user folder',
    () => ['export', '--run', p('run'), '--out', p('mine')],
    /mine is not empty and is not a model folder written by sjd/,
  ],
  [
    'export to an unwritable place',
    () => ['export', '--run', p('run'), '--out', '/proc/sjd-x'],
    /cannot write \/proc\/sjd-x/,
  ],
  ['export without --out', () => ['export', '--run', p('run')], /required option '--out <dir>'/],
  [
    'export over a model folder written before (it was replaced without --force)',
    () => ['export', '--run', p('run'), '--out', p('exported')],
    /exported holds a model folder already; choose another --out or pass --force/,
  ],
  [
    "export over the package's own shipped model (every solve then used the toy model)",
    () => [
      'export',
      '--run',
      p('run'),
      '--out',
      new URL('../../models/sudoku', import.meta.url).pathname,
    ],
    /models\/sudoku is inside sjd's own models\/ .*pass --force/,
  ],
  [
    "a solve file into the package's own models/",
    () => [
      'solve',
      '--file',
      p('puzzles.csv'),
      '--out',
      new URL('../../models/solved.csv', import.meta.url).pathname,
    ],
    /--out .*models\/solved\.csv is inside sjd's own models\//,
  ],
  // solve
  ['solve a short puzzle', () => ['solve', '123'], /81/],
  ['solve a puzzle with a letter', () => ['solve', `x${PUZZLE.slice(1)}`], /puzzle/],
  ['solve a contradictory puzzle', () => ['solve', ROW_CLASH], /row 1/],
  // Sudopedia's invalid test cases: no digit repeats, and no solution (the model ran its retries)
  [
    'solve an unsolvable puzzle (an unsolvable square)',
    () => ['solve', UNSOLVABLE.square],
    /puzzle has no solution$/,
  ],
  [
    'solve an unsolvable puzzle (an unsolvable box)',
    () => ['solve', UNSOLVABLE.box],
    /puzzle has no solution$/,
  ],
  [
    'solve a file holding an unsolvable puzzle (an unsolvable row)',
    () => ['solve', '--file', p('unsolvable.csv'), '--out', p('solved.csv')],
    /unsolvable\.csv line 3, column 1 \(puzzle\): puzzle has no solution$/,
  ],
  ['solve nothing', () => ['solve'], /give one puzzle or --file/],
  ['solve a file without --out', () => ['solve', '--file', p('quizzes.csv')], /--file needs --out/],
  [
    'solve a missing file',
    () => ['solve', '--file', p('none.csv'), '--out', p('o.csv')],
    /none\.csv/,
  ],
  [
    'solve with a missing model',
    () => ['solve', PUZZLE, '--model', p('nowhere')],
    /not a model or run folder/,
  ],
  ['solve with nfe 0', () => ['solve', PUZZLE, '--nfe', '0'], /--nfe/],
  [
    'solve with an unknown sampler',
    () => ['solve', PUZZLE, '--sampler', 'nope'],
    /--sampler.*expected one of/,
  ],
  [
    'solve into an existing file',
    () => ['solve', '--file', p('quizzes.csv'), '--out', p('puzzles.csv')],
    /puzzles\.csv exists/,
  ],
  [
    'solve into a folder',
    () => ['solve', '--file', p('quizzes.csv'), '--out', p('mine')],
    /mine is a folder/,
  ],
  // model configs read from disk
  [
    'an absurd depth',
    () => ['solve', PUZZLE, '--model', p('models', 'deep')],
    /config\.json: model\.depth/,
  ],
  [
    'a negative width',
    () => ['solve', PUZZLE, '--model', p('models', 'negative')],
    /config\.json: model\.width/,
  ],
  [
    'an unknown process',
    () => ['solve', PUZZLE, '--model', p('models', 'bert')],
    /config\.json: process\.name/,
  ],
  [
    'a config that is not JSON',
    () => ['solve', PUZZLE, '--model', p('models', 'notjson')],
    /config\.json: not valid JSON/,
  ],
  [
    'corrupt weights',
    () => ['solve', PUZZLE, '--model', p('models', 'corrupt')],
    /model\.safetensors/,
  ],
  [
    'weights that are a folder',
    () => ['solve', PUZZLE, '--model', p('models', 'wfolder')],
    /wfolder\/model\.safetensors: is a folder, not a safetensors file$/,
  ],
  [
    "weights whose bytes disagree with a tensor's shape",
    () => ['solve', PUZZLE, '--model', p('models', 'shape')],
    /shape\/model\.safetensors.*tensor 'w': bytes: 256 bytes for a tensor of 512/,
  ],
  [
    'an image config key the U-Net does not read',
    () => ['sample', 'image', '--model', p('models', 'unet'), '--out', p('unet.png')],
    /unet\/config\.json: model: .*rotary/,
  ],
  [
    'NaN weights',
    () => ['solve', PUZZLE, '--model', p('models', 'nan')],
    /nan\/model\.safetensors: tensor '[^']+' holds NaN or Inf values/,
  ],
  // eval and sample
  ['eval sudoku without data', () => ['eval', 'sudoku'], /required option '--data <file>'/],
  ['eval sudoku, missing data', () => ['eval', 'sudoku', '--data', p('none.csv')], /none\.csv/],
  [
    'eval sudoku, a folder as data',
    () => ['eval', 'sudoku', '--data', p('mine')],
    /mine is a folder/,
  ],
  [
    'eval sudoku, a header and no puzzles (it scored 0 boards, exit 0)',
    () => ['eval', 'sudoku', '--data', p('header-only.csv')],
    /header-only\.csv holds no puzzles$/,
  ],
  [
    'solve a file of a header and no puzzles',
    () => ['solve', '--file', p('header-only.csv'), '--out', p('solved.csv')],
    /header-only\.csv holds no puzzles$/,
  ],
  [
    "eval sudoku, a puzzle repeating a digit (reported in the solution's column)",
    () => ['eval', 'sudoku', '--data', p('repeat.csv')],
    /repeat\.csv line 2, column 1 \(puzzle\): puzzle has '\d' twice in row 1$/,
  ],
  [
    'train with --out empty (it trained into the working folder)',
    () => ['train', 'sudoku', '--out', '', '--steps', '1'],
    /^sjd: --out is empty; name a file or folder$/,
  ],
  [
    'train sequences at a length no machine holds (the kernel killed it at 24 GB)',
    () => [
      'train',
      'sequences',
      '--data',
      p('dna.txt'),
      '--length',
      '100000',
      '--out',
      p('seq-run'),
    ],
    /^sjd: a training step at length 100000 and batch \d+ would hold about \d+ GB .*use a shorter --length/,
  ],
  [
    'eval sudoku, no solutions',
    () => ['eval', 'sudoku', '--data', p('quizzes.csv')],
    /quizzes\.csv/,
  ],
  [
    'eval sudoku, limit 0',
    () => ['eval', 'sudoku', '--data', p('puzzles.csv'), '--limit', '0'],
    /--limit/,
  ],
  [
    'eval text, missing model',
    () => ['eval', 'text', '--model', p('nowhere')],
    /not a model or run folder/,
  ],
  [
    'eval text with a Sudoku model',
    () => ['eval', 'text', '--model', p('run')],
    /holds a sudoku model, not text/,
  ],
  [
    'sample text with a Sudoku model',
    () => ['sample', 'text', '--model', p('run')],
    /holds a sudoku model, not text/,
  ],
  ['sample zero texts', () => ['sample', 'text', '--model', p('run'), '-n', '0'], /--n/],
  [
    'sample at temperature 0',
    () => ['sample', 'text', '--model', p('run'), '--temperature', '0'],
    /--temperature/,
  ],
  // serve's flags (the server never starts)
  ['serve: write timeout 0', () => ['serve', '--write-timeout', '0'], /--write-timeout/],
  ['serve: negative job timeout', () => ['serve', '--job-timeout', '-5'], /--job-timeout/],
  [
    'serve: job timeout per NFE not a number',
    () => ['serve', '--job-timeout-per-nfe', 'x'],
    /--job-timeout-per-nfe/,
  ],
  [
    'serve: no streams per client',
    () => ['serve', '--streams-per-client', '0'],
    /--streams-per-client.*expected an integer in \[1, 1024\]/,
  ],
  [
    'serve: queue timeout 0',
    () => ['serve', '--queue-timeout', '0'],
    /--queue-timeout.*expected an integer in \[1, 3600000\]/,
  ],
  // data-parallel training: more ranks than the machine holds; a master that does not resolve
  [
    'train: --nproc 999',
    () => ['train', 'sudoku', '--size', 'tiny', '--steps', '2', '--nproc', '999', '--out', p('np')],
    /^sjd: --nproc 999: this machine holds at most \d+ ranks/,
  ],
  [
    'train: a master that does not resolve',
    () => [
      ...['train', 'sudoku', '--size', 'tiny', '--steps', '2', '--out', p('rank1')],
      ...['--rank', '1', '--world-size', '2', '--master', 'nohost.invalid:29555'],
      ...['--interface', 'lo'],
    ],
    /^sjd: --master nohost\.invalid:29555: cannot resolve 'nohost\.invalid'/,
  ],
  // output paths of one command that name the same file
  [
    'sample image: --out and --trace the same file',
    () => ['sample', 'image', '--out', p('g.png'), '--trace', p('g.png')],
    /^sjd: --out and --trace name the same file \(.*g\.png\); give each output its own path$/,
  ],
  [
    'sample image: --out and --trace the same file, spelled apart',
    () => ['sample', 'image', '--out', p('mine', 'g.png'), '--trace', `${box}/./link/g.png`],
    /--out and --trace name the same file/,
  ],
  [
    'sample image: --out and --trace the same existing file, with --force',
    () => ['sample', 'image', '--out', p('grid.png'), '--trace', p('grid.png'), '--force'],
    /--out and --trace name the same file/,
  ],
  [
    'compare: --out and --doc the same path',
    () => ['compare', 'sudoku', '--steps', '1', '--out', p('c.md'), '--doc', p('c.md')],
    /--out and --doc name the same file/,
  ],
  [
    'compare: a report that is not Markdown (its plot would replace it)',
    () => ['compare', 'text', '--steps', '1', '--out', p('c'), '--doc', p('report.txt')],
    /--doc.*expected a Markdown file \(\.md\)/,
  ],
  // data
  [
    'demo image into a .jpg (it wrote PNG bytes under that name)',
    () => ['demo', 'image', '--out', p('grid.jpg')],
    /grid\.jpg: sjd writes PNG images; name the file \.png$/,
  ],
  [
    'sample image with a trace named .JPEG',
    () => ['sample', 'image', '--trace', p('trace.JPEG')],
    /trace\.JPEG: sjd writes PNG images; name the file \.png$/,
  ],
  [
    'data text8 over a user folder',
    () => ['data', 'text8', '--out', p('mine')],
    /mine is not empty/,
  ],
  [
    'data text8 from a 2 GB file of NUL bytes (it read the whole file, 2.4 min, and left a temporary file when stopped)',
    () => ['data', 'text8', '--from', zeros, '--out', p('c1')],
    /zeros\.bin is not text: it holds NUL bytes/,
  ],
  [
    'data text8 from UTF-16 text (read as UTF-8: t h e q u i c k)',
    () => ['data', 'text8', '--from', p('utf16.txt'), '--out', p('c1')],
    /utf16\.txt is UTF-16 text .*iconv -f UTF-16 -t UTF-8/,
  ],
  [
    'data text from Latin-1 text',
    () => ['data', 'text', '--from', p('latin1.txt'), '--out', p('c1')],
    /latin1\.txt is not UTF-8 text: \d+% of the characters in its first megabyte do not decode/,
  ],
  [
    'data text8 from nowhere',
    () => ['data', 'text8', '--from', p('nowhere'), '--out', p('c1')],
    /nowhere/,
  ],
  [
    'data text8 to an unwritable place',
    () => ['data', 'text8', '--out', '/proc/sjd-x'],
    /cannot write \/proc\/sjd-x/,
  ],
  [
    'data images over a user file',
    () => ['data', 'images', '--out', p('afile.txt')],
    /afile\.txt exists; choose another --out or pass --force/,
  ],
  [
    'data images, 3 levels',
    () => ['data', 'images', '--out', p('i.safetensors'), '--levels', '3'],
    /--levels.*expected a power of two from 2 to 256/,
  ],
  [
    'data images, unknown split',
    () => ['data', 'images', '--out', p('i.safetensors'), '--split', 'val'],
    /--split.*expected one of train, test/,
  ],
  [
    'data images, limit 0',
    () => ['data', 'images', '--out', p('i.safetensors'), '--limit', '0'],
    /--limit/,
  ],
  [
    'data images from nowhere (it asked to install Fashion-MNIST)',
    () => ['data', 'images', '--out', p('i.safetensors'), '--from', p('nowhere')],
    /--from .*nowhere: no such file or folder$/,
  ],
  [
    'data images from a folder of empty class folders (it asked to install Fashion-MNIST)',
    () => ['data', 'images', '--out', p('i.safetensors'), '--from', p('classless')],
    /--from .*classless: no PNG or JPEG images \(directly or in class folders\), CIFAR-10 batches or Fashion-MNIST files there$/,
  ],
  [
    'data images from a folder with a dangling symlink (a raw ENOENT ... stat)',
    () => ['data', 'images', '--out', p('i.safetensors'), '--from', p('dangling')],
    /dangling\/x\.png: a symbolic link to nothing; remove it or point it at an image$/,
  ],
  [
    'data images from a CIFAR-10 file past 2 GiB (a raw "File size ... greater than 2 GiB")',
    () => ['data', 'images', '--out', p('i.safetensors'), '--from', cifarHuge],
    /data_batch_1\.bin: 2\.0 GB; a CIFAR-10 batch file holds 10,000 images in 29\.3 MB/,
  ],
  [
    'data images from a 16000 x 16000 PNG of 250 KB (9.3 GB and 88 s, then a raw error)',
    () => ['data', 'images', '--out', p('i.safetensors'), '--from', p('huge')],
    /huge\/a\.png: more than 67,108,864 pixels \(8192 x 8192\); shrink it first$/,
  ],
  [
    'data images to an unwritable place',
    () => ['data', 'images', '--out', '/proc/sjd-x.safetensors'],
    /cannot write \/proc\/sjd-x\.safetensors/,
  ],
  // compare
  [
    'compare with zero steps',
    () => ['compare', 'sudoku', '--steps', '0', '--out', p('c')],
    /--steps/,
  ],
  [
    'compare sudoku with a model twice (one run would count twice in the report)',
    () => ['compare', 'sudoku', '--steps', '1', '--out', p('c'), '--models', 'sjd,hybrid,sjd'],
    /model 'sjd' is listed twice/,
  ],
  [
    'compare text with mdlm and masked (one model under two names)',
    () => ['compare', 'text', '--steps', '1', '--out', p('c'), '--models', 'mdlm,masked'],
    /model 'masked' is listed twice/,
  ],
  [
    'compare with a seed twice, written two ways',
    () => ['compare', 'sudoku', '--steps', '1', '--out', p('c'), '--seeds', '0,1,00'],
    /seed 0 is listed twice \(as '0' and '00'\)/,
  ],
  [
    'compare an unknown process (the earlier flag --processes)',
    () => ['compare', 'sudoku', '--steps', '1', '--out', p('c'), '--processes', 'bert'],
    /unknown model 'bert'/,
  ],
  [
    'compare sudoku, --models and --processes both',
    () => [
      ...['compare', 'sudoku', '--steps', '1', '--out', p('c')],
      ...['--models', 'hybrid', '--processes', 'sjd'],
    ],
    /give --models or its earlier name --processes, not both/,
  ],
  [
    'compare image, unknown model',
    () => ['compare', 'image', '--steps', '1', '--out', p('c'), '--models', 'sjd-x'],
    /unknown model 'sjd-x'/,
  ],
  [
    'compare bad seeds',
    () => ['compare', 'sudoku', '--steps', '1', '--out', p('c'), '--seeds', 'a'],
    /'a' is not a seed/,
  ],
  [
    'compare into an unwritable doc',
    () => ['compare', 'sudoku', '--steps', '1', '--out', p('c'), '--doc', '/proc/sjd-x/doc.md'],
    /cannot write \/proc\/sjd-x\/doc\.md/,
  ],
  [
    'compare text, unknown model',
    () => ['compare', 'text', '--steps', '1', '--out', p('c'), '--models', 'bert'],
    /unknown model 'bert'/,
  ],
];

test(`the corpus holds at least 50 bad inputs (${cases.length})`, () => {
  assert.ok(cases.length >= 50);
});

for (const [name, args, message, env] of cases) {
  test(`bad input: ${name}`, () => {
    const argv = args();
    const r = sjd(argv, env);
    const where = `${Object.entries(env ?? {})
      .map(([k, v]) => `${k}=${v} `)
      .join('')}sjd ${argv.join(' ')}\n${r.stderr}`;
    assert.notEqual(r.status, 0, where);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, where);
    assert.match(lines[0]!, /^sjd: /, where);
    assert.doesNotMatch(r.stderr, /\n\s+at /, where);
    assert.match(lines[0]!, message, where);
    assert.deepEqual(snapshot(), before_, where);
  });
}
