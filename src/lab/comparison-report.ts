// A comparison's Markdown report ends with the line that reproduces it; that line is also how
// sjd recognises a report it wrote (util/out-path.ts, FileKind), so a comparison run again
// rewrites its own report (and the plot, data and grids named after it) and refuses a user's
// file at --doc unless --force.
import { type FileKind, smallFileText } from '../util/out-path.js';
import { mean, separation, std } from '../util/stats.js';

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

/**
 * One claim of a against b over seeds: each side's mean +- std to `digits` decimals, the difference
 * of the means when `difference` names its unit, and whether every seed of a lies above or below
 * every seed of b (`side` words it: "below (better than)" where lower is better) or they overlap.
 */
export function seedVerdict(
  aName: string,
  a: number[],
  bName: string,
  b: number[],
  o: { digits: number; difference?: string; side?: (s: 'above' | 'below') => string },
): string {
  if (a.length === 0 || b.length === 0) return `${aName} against ${bName}: not measured yet`;
  const f = (xs: number[]) => `${mean(xs).toFixed(o.digits)} +- ${std(xs).toFixed(o.digits)}`;
  const side = separation(a, b);
  const sep =
    side === 'overlap'
      ? 'the seeds overlap'
      : `every seed of ${aName} ${o.side?.(side) ?? side} every seed of ${bName}`;
  const d = mean(a) - mean(b);
  const diff = o.difference
    ? `difference ${d >= 0 ? '+' : ''}${d.toFixed(o.digits)} ${o.difference}, `
    : '';
  return `${aName} ${f(a)} against ${bName} ${f(b)} (${a.length} and ${b.length} seeds): ${diff}${sep}`;
}
