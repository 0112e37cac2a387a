// `sjd compare TASK`: processes compared at a matched budget, one subcommand for every task of
// the registry with a comparison (its spec's compare entry: Sudoku, images, text). Each takes the
// shared flags (compare-options.ts) and its task's own (compare-<task>.ts); same budget and
// seeds, resumable; each writes its report (table, plot) where --doc says.
import type { Command } from 'commander';
import { type CompareEntry, taskSpecs } from '../index.js';
import { imageCompareFlags } from './compare-image.js';
import {
  type ComparisonFlags,
  checkOutputs,
  comparison,
  logHooks,
  markdownFile,
  reportDone,
} from './compare-options.js';
import { sudokuCompareFlags } from './compare-sudoku.js';
import { textCompareFlags } from './compare-text.js';
import { group } from './options.js';
import { reproduceLine } from './reproduce.js';

/** Each shipped task's own flags of `sjd compare TASK`. */
const TASK_FLAGS: Record<string, (c: Command) => Command> = {
  sudoku: sudokuCompareFlags,
  image: imageCompareFlags,
  text: textCompareFlags,
};

/**
 * Flags whose default is a path of this installation (the shipped feature network): the
 * reproduce line leaves them out while they hold it.
 */
const INSTALLATION_DEFAULTS = ['--features'];

function registerCompareTask(cmd: Command, name: string, sizes: string[], e: CompareEntry): void {
  const c = comparison(cmd.command(name), e.description, sizes, e.models, e.seeds);
  (TASK_FLAGS[name] ?? ((x) => x))(c)
    .option(
      '--doc <file>',
      'the Markdown report (its plot and data beside it, named after it)',
      markdownFile,
      e.doc,
    )
    .action(async (o: ComparisonFlags, self: Command) => {
      const flags = { ...o, seeds: o.seeds.map(Number), command: '' };
      const files = e.outputs?.(flags) ?? { report: o.doc, beside: [] };
      checkOutputs(o.out, files, o.force === true);
      // --no-wait and --force change who works the runs and what may be replaced, not the
      // report: the reproduce line leaves them out, and the options the others leave unused
      // (text's --models beside --hazards)
      const unused = Object.fromEntries((e.unused?.({ ...o }) ?? []).map((k) => [k, undefined]));
      const command = reproduceLine(
        self,
        { ...o, wait: undefined, force: undefined, ...unused },
        INSTALLATION_DEFAULTS,
      );
      const done = await e.run({ ...flags, command }, logHooks);
      reportDone(files.report, done);
    });
}

export function registerCompare(program: Command): void {
  const cmd = group(program, 'compare', 'compare processes at a matched budget');
  for (const spec of taskSpecs())
    if (spec.compare)
      registerCompareTask(cmd, spec.name, Object.keys(spec.train.sizes), spec.compare);
}
