// `sjd compare TASK`: processes compared at a matched budget, one subcommand for every comparison
// of the lab (lab/comparisons.ts: Sudoku, text, images, and a registered task's compare entry).
// Each takes the shared flags (compare-options.ts) and the flags its entry declares (checked
// together by its check); same budget and seeds, resumable; each writes its report (table, plot)
// where --doc says.

import type { Command } from 'commander';
import type { CompareEntry } from '../index.js';
import * as lab from '../lab/index.js';
import * as torch from '../torch/index.js';
import {
  type ComparisonFlags,
  checkOutputs,
  compareHooks,
  comparison,
  markdownFile,
  reportDone,
} from './compare-options.js';
import { addFlags, flagOption, group } from './options.js';
import { reproduceLine } from './reproduce.js';

/** The task's cross-flag checks before the action, and the values they set. */
function checkFlags(c: Command, e: CompareEntry): Command {
  const check = e.check;
  if (!check) return c;
  return c.hook('preAction', (self) => {
    const set = check(self.opts(), (name) => self.getOptionValueSource(name) === 'cli');
    for (const [k, v] of Object.entries(set ?? {})) self.setOptionValue(k, v);
  });
}

/**
 * The comparison: its outputs claimed, the reproduce line (without the flags in `local`, whose
 * default is a path of this installation, while they hold it), the runs, the report.
 */
function compareAction(e: CompareEntry, local: string[]) {
  return async (o: ComparisonFlags, self: Command) => {
    torch.requireLibtorch('a comparison (it trains its runs)');
    const flags = { ...o, command: '' };
    const files = e.outputs?.(flags) ?? { report: o.doc, beside: [] };
    checkOutputs(o.out, files, o.force === true);
    // --no-wait and --force change who works the runs and what may be replaced, not the
    // report: the reproduce line leaves them out, and the options the others leave unused
    // (text's --models beside --hazards)
    const unused = Object.fromEntries((e.unused?.({ ...o }) ?? []).map((k) => [k, undefined]));
    const command = reproduceLine(
      self,
      { ...o, wait: undefined, force: undefined, ...unused },
      local,
    );
    const done = await e.run({ ...flags, command }, compareHooks());
    reportDone(files.report, done);
  };
}

function registerCompareTask(cmd: Command, name: string, sizes: string[], e: CompareEntry): void {
  const c = comparison(cmd.command(name), e.description, sizes, e.models, e.seeds);
  const flags = e.flags ?? [];
  const local = flags.filter((f) => f.localDefault).map((f) => flagOption(f).long!);
  checkFlags(addFlags(c, flags), e)
    .option(
      '--doc <file>',
      'the Markdown report (its plot and data beside it, named after it)',
      markdownFile,
      e.doc,
    )
    .action(compareAction(e, local));
}

export function registerCompare(program: Command): void {
  const cmd = group(program, 'compare', 'compare processes at a matched budget');
  for (const { task, sizes, entry } of lab.comparisons())
    registerCompareTask(cmd, task, sizes, entry);
}
