// `node dist/bench/rank-noise.js --model DIR [--model DIR ...] [--data DIR]`: the noise CANDI's
// rank-degradation schedule reaches with a trained text model's learned anchors: for t from 0 to 1,
// the schedule's target r(t), the achieved expected rank fraction (closed form over the anchors'
// pairwise distances) and the fraction of sites whose nearest anchor is still their own (Monte
// Carlo), true anchors drawn from the corpus' character frequencies (--data, a folder of
// `sjd data text8`; uniform without it). Not a speed benchmark: a calibration table for
// docs/reports/text/rank-schedule.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { achievedRank, rankDegradation } from '../src/process/index.js';
import { ALPHABET } from '../src/tasks/text/corpus.js';
import { textShape } from '../src/tasks/text/task.js';
import { TorchGenerator, tidy } from '../src/torch/index.js';
import { loadTransformer } from '../src/train/index.js';

const { values } = parseArgs({
  options: { model: { type: 'string', multiple: true }, data: { type: 'string' } },
});
const weights = values.data
  ? (() => {
      const text = readFileSync(join(values.data, 'train.txt'), 'utf8');
      const w = new Array<number>(ALPHABET.length).fill(0);
      for (const ch of text) w[ALPHABET.indexOf(ch)]! += 1;
      return w;
    })()
  : undefined;
const times = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
for (const dir of values.model ?? []) {
  const { model, process: proc, config } = loadTransformer(dir, textShape, 'text');
  const vp = config.process.vp;
  if (vp?.kind !== 'rank') {
    console.log(`${dir}: not on the rank-degradation schedule`);
    continue;
  }
  const target = rankDegradation(vp);
  const E = tidy(() => model.anchors.forward().detach());
  const pairs = tidy(() => E.unsqueeze(1).sub(E.unsqueeze(0)).square().sum(-1).sqrt().toArray()); // [K * K]
  const K = E.size(0);
  const off = pairs.filter((_, k) => Math.floor(k / K) !== k % K);
  const D = { mean: off.reduce((a, b) => a + b, 0) / off.length, min: Math.min(...off) };
  console.log(
    `\n${dir} (${config.process.name}; anchors d = ${E.size(1)}, pairwise distance mean ${D.mean.toFixed(2)}, min ${D.min.toFixed(2)}, orthogonal sqrt(2d) = ${Math.sqrt(2 * E.size(1)).toFixed(2)})\n`,
  );
  console.log('| t | target r(t) | achieved rank | own anchor nearest |');
  console.log('|---|---|---|---|');
  for (const t of times) {
    const r = tidy(() => achievedRank(proc.vp, E, t, new TorchGenerator(1), 8192, weights));
    console.log(
      `| ${t} | ${target.rank(t).toFixed(3)} | ${r.rank.toFixed(3)} | ${r.ownNearest.toFixed(3)} |`,
    );
  }
}
