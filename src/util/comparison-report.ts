// A comparison's Markdown report ends with the line that reproduces it; that line is also how
// sjd recognises a report it wrote (util/out-path.ts, FileKind), so a comparison run again
// rewrites its own report (and the plot, data and grids named after it) and refuses a user's
// file at --doc unless --force.
import { type FileKind, smallFileText } from './out-path.js';

const RESUMABLE = '(resumable: run it again to continue).';

/** The report's last line: the command that reproduces it (and continues it). */
export const reproduceFooter = (command: string): string =>
  `Reproduce: \`${command}\` ${RESUMABLE}\n`;

const FOOTER = /^Reproduce: `[^`\n]+` \(resumable: run it again to continue\)\.$/m;

/** A comparison report sjd wrote: a Markdown file with the reproduce line of reproduceFooter. */
export const COMPARISON_REPORT: FileKind = {
  name: 'comparison report',
  isOurs: (path) => FOOTER.test(smallFileText(path) ?? ''),
};
