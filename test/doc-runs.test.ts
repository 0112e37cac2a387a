// Every command line the README and docs show as a user would type it (doc-lines.ts's literal
// lines: no synopsis, no placeholder) runs as written, `node bin/sjd.js ARGS` in one fresh
// folder, with a shell's `> FILE` kept. What the lines read and a user brings is made first,
// small: a folder of photos, CIFAR-10's binary batches, Sudoku CSVs, notes.txt, greek.txt, dna.fa,
// text8.zip, docs/library.md's task module and, beside the folder, ../shared/data's Wikipedia
// and Sudoku files (this test never reads the real ones). A line runs after the lines that write
// what it reads (--out, `>`, a resumed run; in the docs' order otherwise) and, where another
// guide's line wrote its --out before, on a folder without it, as that guide's reader would have
// (a comparison's lines share their folder, as they are meant to). A line runs until it ends, or
// until it shows that it works: its first progress line (a second of work: a training's steps,
// a sampling's texts, puzzles generated) or the page's address, when it is stopped as Ctrl-C
// stops it (a training keeps its checkpoint); a data line whose output others read runs to its
// end. It passes when it ended with status 0, or was stopped and said nothing but Ctrl-C's
// acknowledgement, or, where what it reads was to come from a line this test stopped (a training
// of hours, 20,000 puzzles generated), refused in one line naming that path. ELSEWHERE names
// the lines that need what a CPU machine lacks (CUDA, a second machine): a CUDA line must refuse
// in one line naming CUDA; the others are not run. The runs take some 20 minutes, more than CI
// has beside the rest of the suite: `npm run test:docs` runs them (SJD_TEST_DOC_RUNS=1); `npm
// test` checks their order and ELSEWHERE's entries, and doc-commands.test.ts parses every line.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { generatedPairs } from '../src/tasks/sudoku/data.js';
import { formatBoard } from '../src/tasks/sudoku/puzzle/board.js';
import { embeddedFiles } from '../src/tasks/text/source.js';
import { taskModuleExample } from './doc-examples.js';
import { type DocCommand, docCommands, root } from './doc-lines.js';
import { docRuns } from './slow.js';
import { tempDir } from './tmp.js';

const bin = join(root, 'bin/sjd.js');
const tmp = tempDir('sjd-doc-runs-');
const work = join(tmp, 'work'); // the fresh folder; ../shared is tmp/shared

/** Lines that need what this machine lacks: [the line's args as a prefix, why, refusal or none]. */
const ELSEWHERE: [string, string, RegExp | null][] = [
  ['--device cuda', 'a CUDA GPU', /^sjd: .*CUDA/],
  ['train sudoku --device cuda', 'a CUDA GPU', /^sjd: .*CUDA/],
  ['train sudoku --out runs/dp --rank', 'a second machine at 10.0.0.1', null],
];

/** Flags whose value is a path a line reads; `runs DIR` reads its argument. */
const READS = ['--data', '--eval-data', '--model', '--run', '--features', '--from', '--config'];

const flag = (args: string[], name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const writes = (c: DocCommand): string[] => [
  ...[flag(c.args, '--out')].filter((p) => p !== undefined),
  ...(c.stdoutTo ? [c.stdoutTo] : []),
];
const reads = (c: DocCommand): string[] => [
  ...READS.flatMap((f) => flag(c.args, f) ?? []),
  ...(c.args[0] === 'runs' ? [c.args[1]!] : []),
  ...(c.args[0] === 'solve' && flag(c.args, '--file') ? [flag(c.args, '--file')!] : []),
  ...(c.args.includes('--resume') ? writes(c) : []), // a run resumed is read
];
/** `path` is `out` or inside it. */
const within = (path: string, out: string) => path === out || path.startsWith(`${out}/`);

/** The lines in the docs' order, each after the lines that write what it reads. */
function ordered(lines: DocCommand[]): DocCommand[] {
  const before = lines.map((c) =>
    lines.flatMap((p, j) =>
      p !== c && reads(c).some((r) => writes(p).some((w) => within(r, w))) ? [j] : [],
    ),
  );
  const done = new Set<number>();
  const out: DocCommand[] = [];
  while (out.length < lines.length) {
    const next = lines.findIndex((_, i) => !done.has(i) && before[i]!.every((j) => done.has(j)));
    assert.ok(next >= 0, "the docs' lines read each other in a cycle");
    done.add(next);
    out.push(lines[next]!);
  }
  return out;
}

/** A Sudoku CSV of `n` generated puzzle,solution rows (seeded), as a user's file has them. */
function sudokuCsv(n: number, seed: number): string {
  const { puzzles, solutions } = generatedPairs(n, seed);
  const rows = puzzles.map((p, i) => `${formatBoard(p)},${formatBoard(solutions[i]!)}`);
  return `puzzle,solution\n${rows.join('\n')}\n`;
}

/** What the lines read that a user brings, small. */
async function standIns(): Promise<void> {
  mkdirSync(work, { recursive: true });
  const at = (p: string) => join(work, p);
  const file = (p: string, data: string | Uint8Array) => {
    mkdirSync(dirname(at(p)), { recursive: true });
    writeFileSync(at(p), data);
  };
  // photos of two sizes in two class folders
  for (let i = 0; i < 12; i++) {
    const [w, h] = i % 2 ? [40, 30] : [24, 24];
    const raw = Buffer.alloc(w * h * 3, (i * 37) % 256);
    for (let p = 0; p < raw.length; p += 7) raw[p] = (p * 13 + i) % 256;
    mkdirSync(at(`photos/${i % 3 ? 'cats' : 'dogs'}`), { recursive: true });
    await sharp(raw, { raw: { width: w, height: h, channels: 3 } })
      .png()
      .toFile(at(`photos/${i % 3 ? 'cats' : 'dogs'}/${i}.png`));
  }
  // CIFAR-10 binary batches: a label byte and 3,072 colour bytes a record
  const batch = (n: number, seed: number) => {
    const b = Buffer.alloc(n * 3073);
    for (let r = 0; r < n; r++) {
      b[r * 3073] = (r + seed) % 10;
      for (let p = 1; p < 3073; p++) b[r * 3073 + p] = (p * 7 + r * 31 + seed) % 256;
    }
    return b;
  };
  for (let k = 1; k <= 5; k++) file(`cifar-10-batches-bin/data_batch_${k}.bin`, batch(8, k));
  file('cifar-10-batches-bin/test_batch.bin', batch(10, 9));
  file('puzzles.csv', sudokuCsv(100, 1));
  file('test.csv', sudokuCsv(12, 2));
  file('qqwing_noguess_test.csv', sudokuCsv(12, 3));
  file('../shared/data/sudoku/qqwing_noguess_train.csv', sudokuCsv(200, 4));
  file('../shared/data/sudoku/qqwing_noguess_test.csv', sudokuCsv(40, 5));
  // English prose (State of the Union addresses, as the embedded corpus), Greek, text8
  const prose = embeddedFiles()
    .slice(0, 3)
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n\n');
  file('notes.txt', prose.slice(0, 40_000));
  const docs = [0, 1, 2].map(
    (i) =>
      `<doc id="${i}" url="https://example.org/${i}" title="T${i}">\nT${i}\n\n${prose.slice(i * 15_000, (i + 1) * 15_000)}\n</doc>\n`,
  );
  file('../shared/data/wikipedia/AA/wiki_00', docs.join(''));
  file(
    'greek.txt',
    'Η Ελλάδα είναι χώρα της νοτιοανατολικής Ευρώπης, στο νότιο άκρο της Βαλκανικής χερσονήσου. Η πρωτεύουσά της είναι η Αθήνα, η μεγαλύτερη πόλη της χώρας. Οι αρχαίοι Έλληνες έγραψαν ποίηση, ιστορία και φιλοσοφία που διαβάζονται ακόμη. '.repeat(
      40,
    ),
  );
  const text8 = prose
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
  file('text8.zip', zipSync({ text8: new TextEncoder().encode(text8) }));
  // DNA: 60 sequences of 16 bases, FASTA
  const bases = 'ACGT';
  const seqs = Array.from(
    { length: 60 },
    (_, i) =>
      `>seq${i}\n${Array.from({ length: 16 }, (_, j) => bases[(i * 7 + j * j + (i >> 2)) % 4]).join('')}\n`,
  );
  file('dna.fa', seqs.join(''));
  // docs/library.md's task module, in a project where sjd is installed (here, linked)
  file('my-task.mjs', taskModuleExample().code);
  mkdirSync(at('node_modules'));
  symlinkSync(root, at('node_modules/sjd'));
}

interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  stopped: boolean; // stopped by this test, once it showed that it works
  stdout: string;
  stderr: string;
  seconds: number;
}

/**
 * A progress line (cli/progress.ts, a training's steps, a file's solve, puzzles being generated):
 * the line works, it may be stopped; so may the page once it gives its address.
 */
const WORKING =
  /^(step \d+\/\d+ |solving \||(sjd [a-z ]+: )?generated [\d,]+ of |[^:\n]+: \d+ (boards done|network passes)|[^:\n]+: \d+\/\d+ )/m;
const ADDRESS = /https?:\/\/127\.0\.0\.1:\d+/;
/** The longest a line may run without showing that it works (then it fails). */
const SILENT_LIMIT_S = 120;
/** The longest a data line that others read may run to its end (a few seconds here). */
const DATA_LIMIT_S = 600;

/**
 * Runs one line in the fresh folder; stops it once it shows that it works, unless `toEnd` (a
 * data line whose output later lines read, from stand-ins or the embedded corpus, runs to its end).
 */
function runLine(c: DocCommand, toEnd: boolean): Promise<Ran> {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, ...c.args], {
      cwd: work,
      env: { ...process.env, SJD_THREADS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let [stdout, stderr, stopped] = ['', '', false];
    const sink = c.stdoutTo ? createWriteStream(join(work, c.stdoutTo)) : undefined;
    const stop = () => {
      if (stopped || child.exitCode !== null) return;
      stopped = true;
      child.kill('SIGINT');
    };
    const limitS = toEnd ? DATA_LIMIT_S : SILENT_LIMIT_S;
    const limit = setTimeout(() => {
      stderr += `(${toEnd ? 'not done' : 'silent'} after ${limitS} s: stopped)\n`;
      stop();
    }, limitS * 1000);
    child.stdout.on('data', (d: Buffer) => {
      if (sink) sink.write(d);
      else stdout += d.toString();
      if (!toEnd && ADDRESS.test(stdout)) stop();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!toEnd && (WORKING.test(stderr) || ADDRESS.test(stderr))) stop();
    });
    child.on('close', (status, signal) => {
      clearTimeout(limit);
      const seconds = (performance.now() - t0) / 1000;
      const end = () => done({ status, signal, stopped, stdout, stderr, seconds });
      if (sink) sink.end(end);
      else end();
    });
  });
}

/** The error lines of stderr (`sjd: ...`) but Ctrl-C's acknowledgement and report: what went wrong. */
const complaints = (stderr: string): string[] =>
  stderr.split('\n').filter((l) => /^sjd: /.test(l) && !/^sjd: (stopping|interrupted) /.test(l));

const all = docCommands(join(tmp, 'placeholders')).filter((c) => c.literal);
const lines = ordered([...new Map(all.map((c) => [c.args.join('\u0000'), c])).values()]);
const elsewhere = (c: DocCommand) => ELSEWHERE.find(([p]) => c.args.join(' ').startsWith(p));

test('the docs show literal command lines, and each ELSEWHERE entry still names one', () => {
  assert.ok(lines.length >= 100, `only ${lines.length} literal lines`);
  for (const [prefix] of ELSEWHERE)
    assert.ok(
      lines.some((c) => c.args.join(' ').startsWith(prefix)),
      `no line starts with '${prefix}' any more: remove its entry`,
    );
  // a line that reads another's output comes after it
  const at = (args: string) => lines.findIndex((c) => c.args.join(' ') === args);
  assert.ok(
    at('train image --data runs/photos.safetensors --out runs/photos') >
      at('data images --from photos --resize 32x32 --out runs/photos.safetensors'),
  );
});

// One subtest per line, in one test declared before any await (see doc-commands.test.ts).
test('every literal command line of the docs runs as written in a fresh folder', {
  skip: docRuns,
}, async (t) => {
  await standIns();
  const wrote = new Map<string, DocCommand>(); // each --out, by the line that last wrote it
  const stoppedEarly = new Set<string>(); // outputs of lines stopped before they ended, or refused
  for (const c of lines) {
    const where = `${c.file}:${c.line}`;
    const away = elsewhere(c);
    await t.test(
      `sjd ${c.args.join(' ')} (${where})`,
      { skip: away && !away[2] && `needs ${away[1]}` },
      async () => {
        // another guide's output of the same name is not this reader's
        for (const w of writes(c)) {
          const before = wrote.get(w);
          const shared = c.args[0] === 'compare' || c.args.includes('--resume');
          if (before && !shared && before.file !== c.file)
            rmSync(join(work, w), { recursive: true, force: true });
        }
        const read = lines.some((o) => reads(o).some((p) => writes(c).some((w) => within(p, w))));
        const r = await runLine(c, c.args[0] === 'data' && read);
        const said = complaints(r.stderr);
        const detail = `\`${c.text}\` (${where}), status ${r.status}${r.signal ? ` ${r.signal}` : ''}, ${r.seconds.toFixed(1)} s: ${said.join(' | ') || r.stderr.slice(-400)}`;
        if (away) {
          assert.notEqual(r.status, 0, detail);
          assert.equal(said.length, 1, detail);
          assert.match(said[0]!, away[2]!, detail);
          return;
        }
        // what it reads was to come from a line this test stopped: a one-line refusal naming it
        const fromStopped = reads(c).filter((p) => [...stoppedEarly].some((w) => within(p, w)));
        const refused = r.status !== 0 && fromStopped.length > 0 && said.length === 1;
        for (const w of writes(c)) {
          wrote.set(w, c);
          if (r.stopped || refused)
            stoppedEarly.add(w); // not written, or not to the end
          else stoppedEarly.delete(w);
        }
        if (refused) {
          t.diagnostic(
            `reads ${fromStopped.join(', ')}, which a line stopped early did not finish`,
          );
          assert.ok(
            fromStopped.some((p) => said[0]!.includes(p)),
            detail,
          );
          return;
        }
        if (r.stopped) {
          assert.ok(r.status === 130 || r.status === 0 || r.signal === 'SIGINT', detail);
          assert.deepEqual(said, [], detail);
          assert.doesNotMatch(r.stderr, /(silent|not done) after/, detail);
          return;
        }
        assert.equal(r.status, 0, detail);
        assert.deepEqual(said, [], detail);
      },
    );
  }
});
