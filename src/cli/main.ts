// The `sjd` command line: thin; parses and validates arguments, calls the library, prints.
// Bad input gets one line on stderr and a non-zero exit, never a stack trace. The commands are
// program.ts's; this file loads a user's task modules, builds the program and runs it.

import { enableReaper } from '../util/reaper.js';
import { buildProgram } from './program.js';
import { loadTaskModules, taskModuleArgs } from './task-modules.js';

// temporary files go however the command ends, a signal or SIGKILL included (util/reaper.ts)
enableReaper();

/**
 * The one line an error prints: its message's first line after 'sjd: ', said once (a worker's
 * or a launched rank's line may carry the prefix already).
 */
const errorLine = (e: unknown): string =>
  `sjd: ${(e instanceof Error ? e.message.split('\n')[0]! : String(e)).replace(/^(sjd: )+/, '')}`;

// a user's tasks are registered before the commands are built, so that each has its subcommands
try {
  await loadTaskModules(taskModuleArgs(process.argv.slice(2)));
} catch (e) {
  console.error(errorLine(e));
  process.exit(2);
}

const program = buildProgram();

// An error no command caught (a stream's, a timer's) is one line too; exit handlers (a
// temporary file's removal) run as on any exit.
const fatal = (e: unknown) => {
  console.error(errorLine(e));
  process.exit(1);
};
process.on('uncaughtException', fatal);
process.on('unhandledRejection', fatal);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  console.error(errorLine(e));
  process.exit(1);
}
