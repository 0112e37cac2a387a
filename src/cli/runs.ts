// `sjd runs DIR`: where the run folders under DIR stand (lab/run-status.ts), one line a run:
// its step against its budget (a feature network: its steps and test accuracy), the process
// working on it, and what it has cached; --json for the same as one JSON array.
import type { Command } from 'commander';
import { util } from '../index.js';
import * as lab from '../lab/index.js';

export function registerRuns(program: Command): void {
  program
    .command('runs')
    .description(
      "where the runs under a folder stand (a comparison's --out): step, the process working on each, cached results",
    )
    .argument('<dir>', 'the folder of the runs')
    .option('--json', 'print one JSON array instead of the table')
    .action((dir: string, o: { json?: boolean }) => {
      const runs = lab.runsUnder(dir);
      if (o.json) {
        console.log(JSON.stringify(runs));
        return;
      }
      if (runs.length === 0) {
        console.log(`no run folders in ${dir}`);
        return;
      }
      const rows = runs.map((r) => [
        r.name,
        r.broken
          ? `broken (${r.broken})`
          : r.features
            ? `features, ${r.steps} steps (test accuracy ${(100 * r.features.testAccuracy).toFixed(1)}%)`
            : r.step === null
              ? `kept (${r.steps})`
              : `${r.step}/${r.steps}`,
        r.heldBy === null ? '-' : `process ${r.heldBy}`,
        [
          ...r.results,
          ...r.partial.map((p) => `${p.file} (${util.counted(p.points, 'point')})`),
        ].join(', ') || '-',
      ]);
      const table = [['run', 'step', 'working', 'cached'], ...rows];
      const widths = [0, 1, 2].map((c) => util.maxOf(table.map((row) => row[c]!.length)));
      for (const row of table)
        console.log(
          row
            .map((cell, c) => (c < 3 ? cell.padEnd(widths[c]!) : cell))
            .join('  ')
            .trimEnd(),
        );
    });
}
