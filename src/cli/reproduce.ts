// The command line that reproduces a run of a command (written once, read from
// commander's options rather than rebuilt by hand per command): `npx sjd` and the command's path,
// then every option that has a value (a `--no-x` flag when given), in the order the command
// declares them, lists joined by commas; hidden options (earlier spellings) are left out, as
// their value is under today's name, and so are the options named in `omitDefault` while they
// hold their default (a default that is a path of this installation, such as the shipped
// feature network, is no one else's).
import type { Command } from 'commander';

/** `npx sjd <path> --flag value ...` for the values `o` parsed by `cmd`. */
export function reproduceLine(
  cmd: Command,
  o: Record<string, unknown>,
  omitDefault: string[] = [],
): string {
  const path: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) path.unshift(c.name());
  const words = ['npx sjd', ...path];
  for (const opt of cmd.options) {
    const v = o[opt.attributeName()];
    if (opt.hidden || v === undefined) continue;
    if (opt.negate) {
      if (v === false) words.push(opt.long!); // `--no-x` given
      continue;
    }
    if (v === false) continue;
    if (omitDefault.includes(opt.long!) && v === opt.defaultValue) continue;
    const flag = opt.long && opt.long.length > 3 ? opt.long : (opt.short ?? opt.long!);
    words.push(v === true ? flag : `${flag} ${Array.isArray(v) ? v.join(',') : String(v)}`);
  }
  return words.join(' ');
}
