// `sjd export-web DIR`: the page as a static site that samples in the browser, with no server
// (src/web/export-site.ts): the shipped models, or those of --models (laid out as `sjd serve
// --models` reads them). It prints what each task serves and how to open the site.
import type { Command } from 'commander';
import { exportSite } from '../web/export-site.js';

export function registerExportWeb(program: Command): void {
  program
    .command('export-web')
    .description(
      'write the page as a static site that samples in the browser (no server): the page, one script and the models',
    )
    .argument('<dir>', 'the folder to write')
    .option(
      '--models <dir>',
      'a folder of task folders (sudoku/, text/, image/: a model or run folder each), as sjd serve --models reads (default: the shipped models)',
    )
    .option('--force', 'replace <dir> even if it is not a site sjd wrote')
    .action((dir: string, o: { models?: string; force?: boolean }) => {
      const contents = exportSite(dir, { models: o.models, force: o.force === true });
      for (const [task, c] of Object.entries(contents))
        console.log(`${task}: ${'from' in c ? c.from : `unavailable (${c.unavailable})`}`);
      console.log(
        `wrote ${dir}; serve it from any static file host, e.g. python3 -m http.server -d ${dir} 8000, and open http://localhost:8000/`,
      );
    });
}
