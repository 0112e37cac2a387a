// The static site's Web Worker (`sjd export-web`): loads the site's models from models/ beside
// the script (models/models.json lists them, site-protocol.ts) on the TypeScript backend, then
// answers the page's API requests (site-api.ts) as `sjd serve` would, so the page runs sampling
// off its main thread and stays responsive; a cancel message stops a run at its next step. A
// model that cannot be fetched or loaded leaves its task unavailable, with the reason, as the
// server does.

import type { TaskName } from '../serve/api-types.js';
import type { Served } from '../serve/served.js';
import { servedModelOf } from '../serve/served.js';
import { TASK_SERVINGS } from '../tasks/serving.js';
import { MODEL_FILES } from '../train/run-folder.js';
import { answer } from './site-api.js';
import {
  SITE_MODELS_FILE,
  type SiteAnswer,
  type SiteModels,
  type SiteRequest,
} from './site-protocol.js';

/** What this file uses of a worker's global scope. */
interface WorkerScope {
  location: { href: string };
  onmessage: ((e: { data: SiteRequest }) => void) | null;
  postMessage(message: SiteAnswer): void;
}

const scope = globalThis as typeof globalThis & WorkerScope;

/** A file of the site, relative to `base`, as text or bytes; a failed fetch says which file. */
async function fetchFile(base: URL, name: string): Promise<Response> {
  const url = new URL(name, base);
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url.pathname}: ${res.status} ${res.statusText}`);
  return res;
}

/** One task's model from its folder, or why it is unavailable. */
async function loadTask(base: URL, task: TaskName, entry: SiteModels[TaskName]) {
  if (!entry || 'unavailable' in entry)
    return { unavailable: entry?.unavailable ?? `no ${task} model` };
  try {
    const folder = new URL(entry.folder, base);
    const [config, weights] = await Promise.all([
      fetchFile(folder, MODEL_FILES.config).then((r) => r.text()),
      fetchFile(folder, MODEL_FILES.weights).then(
        async (r) => new Uint8Array(await r.arrayBuffer()),
      ),
    ]);
    const spec = TASK_SERVINGS[task];
    const m = spec.fromFiles!(config, weights, entry.folder.replace(/\/$/, ''));
    return servedModelOf(spec, m, `${entry.folder}${MODEL_FILES.weights}`);
  } catch (e) {
    return { unavailable: `${task}: ${(e as Error).message.split('\n')[0]}` };
  }
}

/** The site's models, as models/models.json lists them. */
async function loadSite(): Promise<Served> {
  const base = new URL('models/', scope.location.href);
  let list: SiteModels;
  try {
    list = (await (await fetchFile(base, SITE_MODELS_FILE)).json()) as SiteModels;
  } catch (e) {
    const reason = `the site's model list: ${(e as Error).message}`;
    list = Object.fromEntries(
      Object.keys(TASK_SERVINGS).map((t) => [t, { unavailable: reason }]),
    ) as SiteModels;
  }
  const tasks = Object.keys(TASK_SERVINGS) as TaskName[];
  const loaded = await Promise.all(tasks.map((t) => loadTask(base, t, list[t])));
  return Object.fromEntries(tasks.map((t, i) => [t, loaded[i]!]));
}

/** Loads the site's models and answers the page's requests: call once, in the Worker. */
export function startSiteWorker(): void {
  const served = loadSite();
  const running = new Map<number, AbortController>();
  scope.onmessage = ({ data }) => {
    if ('cancel' in data) {
      running.get(data.cancel)?.abort();
      return;
    }
    const ac = new AbortController();
    running.set(data.id, ac);
    void served
      .then((s) =>
        answer(s, data.id, data.url, data.stream, ac.signal, (a) => scope.postMessage(a)),
      )
      .finally(() => running.delete(data.id));
  };
}
