// `sjd data text` (alias `text8`): make a text8-style corpus folder: text normalised as text8
// (wikifil: lowercase letters, accents stripped, single spaces) over text8's alphabet or, with
// accents and other marks kept, the corpus's own, split 90/5/5 (or --hold-out's share each for
// valid and test) into train.txt, valid.txt and test.txt, from WikiExtractor output, plain text,
// a text8 file or text8.zip, or the embedded corpus; it says what was dropped.
// `sjd data tokens`: make a token corpus folder from the same sources, raw text tokenised by
// GPT-2's BPE or a HuggingFace tokenizer.json and split the same way into train.tok, valid.tok
// and test.tok.
import { type Command, Option } from 'commander';
import { text } from '../../index.js';
import { CORPUS_HOLD_OUT, parseHoldOut } from '../../tasks/common/hold-out.js';
import { group, oneOf } from '../options.js';
import { type Progress, progress } from '../progress.js';

/**
 * What `write` returns, told the reading's progress: a report in MiB once the size is known
 * (shown when the reading takes a while), stopped after.
 */
function withReading<T>(from: string, write: (progress: text.SourceProgress) => T): T {
  let bar: Progress | undefined; // made at the first report, when the size is known
  const MiB = 2 ** 20;
  try {
    return write((done, total, verb) => {
      bar ??= progress(`${verb} ${from}`, Math.ceil(total / MiB), 'MiB');
      bar.update(Math.round(done / MiB));
    });
  } finally {
    bar?.stop();
  }
}

/** `--hold-out` of a corpus being made (`units`: characters, tokens), kept as spelled. */
const holdOutOption = (units: string) =>
  new Option(
    '--hold-out <n|fraction>',
    `the ${units} of each of the valid and test splits, held out from training at the end of the text: a count, or a fraction of the corpus (default ${CORPUS_HOLD_OUT}: 90/5/5)`,
  ).argParser((v) => parseHoldOut(v).spelled);

/** One line saying what normalisation dropped (corpus.json's `dropped`), or none. */
function droppedLine(d: text.Dropped): string | undefined {
  const top = (xs: [string, number][]) =>
    xs.map(([c, n]) => `${JSON.stringify(c)} ${n}`).join(', ');
  const parts = [
    d.accents > 0 ? `${d.accents} accents stripped` : '',
    d.characters.total > 0
      ? `${d.characters.total} other characters made spaces (most: ${top(d.characters.top)})`
      : '',
    d.letters.total > 0
      ? `${d.letters.total} letters outside the alphabet made spaces (most: ${top(d.letters.top)})`
      : '',
  ].filter(Boolean);
  return parts.length ? `normalisation: ${parts.join('; ')}` : undefined;
}

/** The flags both corpus commands take. */
interface CorpusFlags {
  from: string;
  out: string;
  holdOut?: string;
  force?: boolean;
}

function registerText(data: Command): void {
  data
    .command('text')
    .alias('text8')
    .description(
      "normalise text as text8 (wikifil; letters lowercased, accents stripped) in text8's alphabet or, accents and marks kept, in the corpus's own, and split it 90/5/5 (--hold-out) into train.txt, valid.txt, test.txt",
    )
    .requiredOption('--out <dir>', 'corpus folder to write')
    .option(
      '--from <path>',
      `WikiExtractor output or plain text (file or folder), a text8 file or text8.zip; '${text.EMBEDDED}' for the embedded corpus`,
      text.EMBEDDED,
    )
    .option(
      '--alphabet <mode>',
      `the letters kept: text8 (a-z), own (every letter the text uses), or auto (text8 unless over ${100 * text.OWN_SHARE}% of the letters are outside a-z)`,
      oneOf([...text.ALPHABET_MODES]),
      'auto',
    )
    .addOption(holdOutOption('characters'))
    .option('--force', 'replace --out even when it is not a corpus folder sjd wrote')
    .action((o: CorpusFlags & { alphabet: text.AlphabetMode }) => {
      const { from, out, force, alphabet: mode, holdOut } = o;
      const meta = withReading(from, (progress) =>
        text.writeCorpus(from, out, { force, progress, alphabet: mode, holdOut }),
      ) as Record<string, { chars: number }> & { alphabet: string; dropped: text.Dropped };
      const symbols = Array.from(meta.alphabet);
      const alphabet =
        meta.alphabet === text.ALPHABET ? 'a-z and space' : `${symbols.length} symbols`;
      console.log(
        `wrote ${o.out}: train ${meta.train!.chars}, valid ${meta.valid!.chars}, test ${meta.test!.chars} characters, alphabet ${alphabet} (from ${o.from})`,
      );
      const dropped = droppedLine(meta.dropped);
      if (dropped) console.log(dropped);
    });
}

function registerTokens(data: Command): void {
  data
    .command('tokens')
    .description(
      'tokenise raw text (GPT-2 BPE or a tokenizer.json) and split it 90/5/5 (--hold-out) into train.tok, valid.tok, test.tok',
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
    .addOption(holdOutOption('tokens'))
    .option('--force', 'replace --out even when it is not a token corpus folder sjd wrote')
    .option(
      '--allow-unknown',
      `keep a corpus more than ${100 * text.MAX_UNKNOWN_SHARE}% of whose tokens are the tokenizer's unknown token`,
    )
    .action((o: CorpusFlags & { tokenizer: string; allowUnknown?: boolean }) => {
      const { from, out, tokenizer, force, allowUnknown, holdOut } = o;
      const meta = withReading(from, (progress) =>
        text.writeTokenCorpus(from, out, { tokenizer, force, progress, allowUnknown, holdOut }),
      );
      const { train, valid, test } = meta.splits;
      const n = train.tokens + valid.tokens + test.tokens;
      console.log(
        `wrote ${o.out}: train ${train.tokens}, valid ${valid.tokens}, test ${test.tokens} tokens (${meta.tokenizer.name}, vocab ${meta.tokenizer.vocab}, from ${o.from})`,
      );
      if (meta.unknown)
        console.log(
          `unknown tokens: ${((100 * meta.unknown.count) / n).toFixed(1)}% (${meta.unknown.count} of ${n} are ${meta.unknown.token})`,
        );
    });
}

export function registerData(program: Command): void {
  const data = group(program, 'data', 'prepare data');
  registerText(data);
  registerTokens(data);
}
