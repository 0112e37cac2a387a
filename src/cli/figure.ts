// `sjd figure NAME --out FILE.svg [--seed N] [--force]`: draws one of the paper's figures
// (src/figures/: fig:eta-commit, fig:diffusion_comparison) from the process engine and the
// samplers into an SVG file (its folder made if missing), written atomically; an existing file is
// replaced only with --force.
// Same seed, same figure.
import { dirname } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { figures, util } from '../index.js';
import { seed } from './options.js';

interface FigureOpts {
  out: string;
  seed: number;
  force?: boolean;
}

/** --out names an SVG file. */
function svgFile(value: string): string {
  if (!/\.svg$/i.test(value)) throw new InvalidArgumentError('the figure is SVG: name a .svg file');
  return value;
}

export function registerFigure(program: Command): void {
  const cmd = program
    .command('figure')
    .description("draw one of the paper's figures into an SVG file (no model needed)");
  for (const [name, f] of Object.entries(figures.FIGURES)) {
    cmd
      .command(name)
      .description(`${f.label}: ${f.description}`)
      .requiredOption('--out <file>', 'the SVG file to write', svgFile)
      .option('--seed <n>', 'seed of the reverse runs', seed, 0)
      .option('--force', 'replace an existing --out file')
      .action((o: FigureOpts) => drawFigure(name, o));
  }
}

async function drawFigure(name: string, o: FigureOpts): Promise<void> {
  util.claimOutFile(o.out, o.force === true);
  util.makeDir(dirname(o.out)); // a folder that does not exist yet
  const t0 = performance.now();
  await figures.writeFigure(name, o.out, { seed: o.seed });
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    `wrote ${o.out}: ${figures.figure(name).label} (seed ${o.seed}) in ${seconds.toFixed(1)} s`,
  );
}
