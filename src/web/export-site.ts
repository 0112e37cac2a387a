// `sjd export-web DIR` in Node: the page of `sjd serve` as a static site that samples in the
// browser, with no server: index.html (the page, its one script swapped in), style.css,
// sjd-site.js (web/dist, bundled by scripts/build-web.mjs: the page and the Web Worker that runs
// sjd, site-worker.ts) and models/ (each task's model folder, models/models.json listing them,
// site-protocol.ts). The models come from a folder laid out as `sjd serve --models` reads one
// (default: the shipped models): a task's model folder is copied, a run folder's EMA weights
// exported (float16), a task without one shown unavailable. Each model is loaded here from its
// bytes as the browser loads it (the task's fromFiles), so a site is not written with a model
// the page could not load. The folder is written beside and renamed into place; a non-empty
// folder that is not a site sjd wrote is refused without --force.
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskName } from '../serve/api-types.js';
import { WEB_ROOT } from '../serve/app.js';
import { SHIPPED_MODELS } from '../serve/models.js';
import { taskShape } from '../tasks/registry.js';
import { TASK_SERVINGS } from '../tasks/serving.js';
import { exportModel, isModelFolder, isRunFolder, MODEL_FILES } from '../train/index.js';
import { sjdVersion } from '../train/manifest.js';
import { makeDir, replaceDirAtomic, writeFileAtomic, writeJsonAtomic } from '../util/atomic.js';
import { claimOutDir, type FolderKind } from '../util/out-path.js';
import { SITE_MODELS_FILE, type SiteModels } from './site-protocol.js';

/** What a site folder holds. */
export const SITE_FILES = {
  page: 'index.html',
  style: 'style.css',
  script: 'sjd-site.js',
  models: 'models',
  manifest: 'sjd-site.json', // what wrote it, from which models
} as const;

export const SITE_FOLDER: FolderKind = {
  name: 'static site',
  isOurs: (dir) => existsSync(join(dir, SITE_FILES.manifest)),
  entries: Object.values(SITE_FILES),
};

/** The served page's script tag, and the site's in its place. */
const PAGE_SCRIPT = '<script type="module" src="dist/main.js"></script>';
const SITE_SCRIPT = `<script type="module" src="${SITE_FILES.script}"></script>`;

export interface ExportSiteOptions {
  models?: string; // a folder of task folders (sudoku/, text/, image/); default: the shipped models
  force?: boolean; // replace a non-empty folder that is not a site sjd wrote
}

/** What the site serves of each task: the folder its model came from, or why it has none. */
export type SiteContents = Record<TaskName, { from: string } | { unavailable: string }>;

/** The page with the site's script in place of the server's modules. */
function sitePage(): string {
  const page = readFileSync(join(WEB_ROOT, SITE_FILES.page), 'utf8');
  if (!page.includes(PAGE_SCRIPT))
    throw new Error(`${join(WEB_ROOT, SITE_FILES.page)} does not load ${PAGE_SCRIPT}`);
  return page.replace(PAGE_SCRIPT, SITE_SCRIPT);
}

/**
 * Writes task `task`'s model from `src` (a model folder, or a run folder to export) into `out`,
 * then loads it from its bytes as the browser will.
 */
function writeModel(task: TaskName, src: string, out: string): void {
  if (isModelFolder(src)) {
    makeDir(out);
    writeFileAtomic(join(out, MODEL_FILES.config), readFileSync(join(src, MODEL_FILES.config)));
    copyFileSync(join(src, MODEL_FILES.weights), join(out, MODEL_FILES.weights));
  } else if (isRunFolder(src)) {
    exportModel(src, out, taskShape, { expectTask: task });
  } else
    throw new Error(
      `${src}: neither a model folder (${MODEL_FILES.config}, ${MODEL_FILES.weights}) nor a run folder`,
    );
  const config = readFileSync(join(out, MODEL_FILES.config), 'utf8');
  const weights = new Uint8Array(readFileSync(join(out, MODEL_FILES.weights)));
  try {
    TASK_SERVINGS[task].fromFiles!(config, weights, src);
  } catch (e) {
    throw new Error(`${task} model ${src}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** Writes the static site into `dir`; returns what it serves of each task. */
export function exportSite(dir: string, o: ExportSiteOptions = {}): SiteContents {
  const root = o.models ?? SHIPPED_MODELS;
  if (!existsSync(root)) throw new Error(`--models ${root}: no such folder`);
  if (!statSync(root).isDirectory())
    throw new Error(`--models ${root} is a file, not a folder of task folders`);
  const script = join(WEB_ROOT, 'dist', SITE_FILES.script);
  if (!existsSync(script))
    throw new Error(`${script} is missing: build the page first (npm run build)`);
  const page = sitePage();
  claimOutDir(dir, SITE_FOLDER, o.force === true);
  const tasks = Object.keys(TASK_SERVINGS) as TaskName[];
  return replaceDirAtomic(dir, (tmp) => {
    writeFileAtomic(join(tmp, SITE_FILES.page), page);
    copyFileSync(join(WEB_ROOT, SITE_FILES.style), join(tmp, SITE_FILES.style));
    copyFileSync(script, join(tmp, SITE_FILES.script));
    const contents = {} as SiteContents;
    const list = {} as SiteModels;
    for (const task of tasks) {
      const src = join(root, task);
      if (!existsSync(join(src, MODEL_FILES.config))) {
        const unavailable = `no ${task} model in ${task}/`;
        contents[task] = { unavailable };
        list[task] = { unavailable };
        continue;
      }
      writeModel(task, src, join(tmp, SITE_FILES.models, task));
      contents[task] = { from: src };
      list[task] = { folder: `${task}/` };
    }
    writeJsonAtomic(join(tmp, SITE_FILES.models, SITE_MODELS_FILE), list);
    writeJsonAtomic(join(tmp, SITE_FILES.manifest), {
      sjd: sjdVersion(),
      models: contents,
      written: new Date().toISOString(),
    });
    return contents;
  });
}
