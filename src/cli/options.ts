// Shared option parsers for the `sjd` command: each rejects bad values with a one-line message.
import { type Command, InvalidArgumentError } from 'commander';

export function int(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected an integer in [${min}, ${max}]`);
    return n;
  };
}

export function num(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`expected a number in [${min}, ${max}]`);
    return n;
  };
}

export function oneOf(choices: readonly string[]) {
  return (value: string): string => {
    if (!choices.includes(value))
      throw new InvalidArgumentError(`expected one of ${choices.join(', ')}`);
    return value;
  };
}

/** The command group `name` (e.g. `train`, `eval`), created once and shared by the tasks. */
export function group(program: Command, name: string, description: string): Command {
  return (
    program.commands.find((c) => c.name() === name) ??
    program.command(name).description(description)
  );
}
