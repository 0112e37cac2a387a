// A child process's output as it arrives (tests that watch a command while it runs): its stdout
// and stderr so far, read at any time, with a callback on each piece of stderr.
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export function outputOf(
  child: ChildProcessByStdio<null, Readable, Readable>,
  onStderr?: (stderr: string) => void,
): { stdout: string; stderr: string } {
  const o = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    o.stdout += d;
  });
  child.stderr.on('data', (d) => {
    o.stderr += d;
    onStderr?.(o.stderr);
  });
  return o;
}
