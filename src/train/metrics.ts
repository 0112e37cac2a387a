// metrics.csv of a run (step, mean training loss over the logging window, learning rate,
// tokens/s, and the task's evaluation metrics at evaluation steps) and its plot
// (metrics.svg: loss and evaluation metrics against step, rendered by Vega-Lite).
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { writeFileAtomic } from '../util/atomic.js';
import { writeSvg } from '../util/plot.js';
import { RUN_FILES } from './run-folder.js';

const BASE = ['step', 'loss', 'lr', 'tokens_per_s'];

/** The rows of a metrics.csv's text, by column (null where a row logged nothing). */
export function metricsRows(csv: string): Record<string, number | null>[] {
  const [head, ...lines] = csv.trimEnd().split('\n');
  const cols = head!.split(',');
  return lines.map((l) =>
    Object.fromEntries(l.split(',').map((v, i) => [cols[i], v === '' ? null : Number(v)])),
  );
}

export class MetricsLog {
  readonly path: string;
  readonly columns: string[];

  constructor(
    readonly dir: string,
    readonly evalMetrics: string[],
  ) {
    this.path = join(dir, RUN_FILES.metrics);
    this.columns = [...BASE, ...evalMetrics];
    // a run resumed by a version that evaluates more keeps the columns it started with
    if (existsSync(this.path))
      this.columns = readFileSync(this.path, 'utf8').split('\n', 1)[0]!.split(',');
    else writeFileSync(this.path, `${this.columns.join(',')}\n`);
  }

  append(
    step: number,
    train: { loss: number; lr: number; tokens_per_s: number },
    evals: Record<string, number>,
  ): void {
    const row: Record<string, number> = { step, ...train, ...evals };
    appendFileSync(
      this.path,
      `${this.columns.map((c) => (row[c] === undefined ? '' : String(row[c]))).join(',')}\n`,
    );
  }

  /** Rows logged after `step` (past the checkpoint a resumed run restarts from) are dropped. */
  truncateAfter(step: number): void {
    const lines = readFileSync(this.path, 'utf8').trimEnd().split('\n');
    const kept = [lines[0], ...lines.slice(1).filter((l) => Number(l.split(',')[0]) <= step)];
    writeFileAtomic(this.path, `${kept.join('\n')}\n`);
  }

  rows(): Record<string, number | null>[] {
    return metricsRows(readFileSync(this.path, 'utf8'));
  }

  /** Writes metrics.svg: training loss and each evaluation metric against step. */
  async plot(): Promise<string> {
    const values = this.rows().flatMap((r) =>
      ['loss', ...this.evalMetrics]
        .filter((m) => r[m] !== null && r[m] !== undefined)
        .map((m) => ({ step: r.step, metric: m, value: r[m] })),
    );
    const spec: TopLevelSpec = {
      data: { values },
      facet: { row: { field: 'metric', type: 'nominal', title: null } },
      spec: {
        width: 480,
        height: 140,
        mark: { type: 'line', point: values.length < 60 },
        encoding: {
          x: { field: 'step', type: 'quantitative' },
          y: { field: 'value', type: 'quantitative', title: null },
        },
      },
      resolve: { scale: { y: 'independent' } },
    };
    return writeSvg(join(this.dir, RUN_FILES.plot), spec);
  }
}
