// `sjd data text8`: make a text8-style corpus folder: text normalised as text8 (wikifil: lower-case
// a-z and single spaces) and split 90/5/5 into train.txt, valid.txt and test.txt, from
// WikiExtractor output, plain text, a text8 file or text8.zip, or the embedded corpus.
// `sjd data tokens`: make a token corpus folder from the same sources, raw text tokenised by
// GPT-2's BPE or a HuggingFace tokenizer.json and split 90/5/5 into train.tok, valid.tok and
// test.tok.
import type { Command } from 'commander';
import { text } from '../../index.js';
import { group } from '../options.js';
import { type Progress, progress, REPORT_FROM } from '../progress.js';

/** A progress bar in MiB once the size is known (a source too small for one shows none). */
function readingProgress(from: string) {
  let bar: Progress | null | undefined; // made at the first report, when the size is known
  const MiB = 2 ** 20;
  const update = (read: number, total: number) => {
    bar ??=
      total / MiB >= REPORT_FROM
        ? progress(`reading ${from}`, Math.ceil(total / MiB), 'MiB')
        : null;
    bar?.update(Math.round(read / MiB));
  };
  return { update, stop: () => bar?.stop() };
}

function registerText8(data: Command): void {
  data
    .command('text8')
    .description(
      'normalise text as text8 (wikifil) and split it 90/5/5 into train.txt, valid.txt, test.txt',
    )
    .requiredOption('--out <dir>', 'corpus folder to write')
    .option(
      '--from <path>',
      `WikiExtractor output or plain text (file or folder), a text8 file or text8.zip; '${text.EMBEDDED}' for the embedded corpus`,
      text.EMBEDDED,
    )
    .option('--force', 'replace --out even when it is not a corpus folder sjd wrote')
    .action((o: { out: string; from: string; force?: boolean }) => {
      const reading = readingProgress(o.from);
      const meta = text.writeCorpus(o.from, o.out, {
        force: o.force,
        progress: reading.update,
      }) as Record<string, { chars: number }>;
      reading.stop();
      console.log(
        `wrote ${o.out}: train ${meta.train!.chars}, valid ${meta.valid!.chars}, test ${meta.test!.chars} characters (from ${o.from})`,
      );
    });
}

function registerTokens(data: Command): void {
  data
    .command('tokens')
    .description(
      'tokenise raw text (GPT-2 BPE or a tokenizer.json) and split it 90/5/5 into train.tok, valid.tok, test.tok',
    )
    .requiredOption(
      '--from <path>',
      `text: a file, a folder's files in name order, a zip file, or '${text.EMBEDDED}' for the embedded corpus`,
    )
    .requiredOption(
      '--tokenizer <spec>',
      `'${text.GPT2}' (GPT-2's BPE) or the path of a HuggingFace tokenizer.json`,
    )
    .requiredOption('--out <dir>', 'token corpus folder to write')
    .option('--force', 'replace --out even when it is not a token corpus folder sjd wrote')
    .action((o: { from: string; tokenizer: string; out: string; force?: boolean }) => {
      const reading = readingProgress(o.from);
      const meta = text.writeTokenCorpus(o.from, o.out, {
        tokenizer: o.tokenizer,
        force: o.force,
        progress: reading.update,
      });
      reading.stop();
      const { train, valid, test } = meta.splits;
      console.log(
        `wrote ${o.out}: train ${train.tokens}, valid ${valid.tokens}, test ${test.tokens} tokens (${meta.tokenizer.name}, vocab ${meta.tokenizer.vocab}, from ${o.from})`,
      );
    });
}

export function registerData(program: Command): void {
  const data = group(program, 'data', 'prepare data');
  registerText8(data);
  registerTokens(data);
}
