// sjd serve's page: tabs for the three tasks, each set up from /api/models (its samplers and
// defaults), or marked unavailable with the server's reason when its model is not served; the
// header names the models served; on load, the Sudoku tab plays a generated puzzle.
import { getJson, type ModelsInfo, type ServedTask, type TaskName } from './api.js';
import { setupImage } from './image.js';
import { setupSudoku } from './sudoku.js';
import { setupSequences, setupText } from './text.js';

/** The page's tabs: the served tasks, and a user's sequences model where one is served. */
type Tab = TaskName | 'sequences';

const SETUP: Record<
  Tab,
  (section: HTMLElement, info: ServedTask, models: ModelsInfo) => void | { play(): Promise<void> }
> = {
  sudoku: setupSudoku,
  text: setupText,
  image: setupImage,
  sequences: setupSequences,
};

function tabs(): void {
  const buttons = document.querySelectorAll<HTMLButtonElement>('.tabs button');
  for (const b of buttons)
    b.addEventListener('click', () => {
      for (const o of buttons) o.setAttribute('aria-selected', String(o === b));
      for (const s of document.querySelectorAll<HTMLElement>('[data-panel]'))
        s.hidden = s.dataset.panel !== b.dataset.tab;
    });
}

const TITLES: Record<Tab, string> = {
  sudoku: 'Sudoku',
  text: 'Text',
  image: 'Images',
  sequences: 'Sequences',
};
const PROCESSES: Record<string, string> = {
  sjd: 'SJD',
  hybrid: 'CADD',
  masked: 'masked diffusion (MDLM)',
  continuous: 'continuous diffusion',
};

/** The header's line of the models served: each task's file and process, or that it has none. */
function modelsLine(models: ModelsInfo): string {
  const each = (Object.keys(TITLES) as Tab[]).map((t) => {
    const info = models.tasks[t];
    if (!info?.available) return `${TITLES[t]}: none served`;
    return `${TITLES[t]}: ${info.source} (${PROCESSES[info.process] ?? info.process})`;
  });
  return `Models: ${each.join('; ')}.`;
}

/** The Sequences panel: the Text panel's markup, its template's hint a sequence's. */
function sequencesSection(): void {
  const text = document.querySelector<HTMLElement>('#text')!;
  const s = text.cloneNode(true) as HTMLElement;
  s.id = 'sequences';
  s.dataset.panel = 'sequences';
  s.querySelector('form')!.id = 'sequences-form';
  s.querySelector<HTMLElement>('fieldset')!.dataset.task = 'sequences';
  s.querySelector<HTMLInputElement>('input[name="infill"]')!.placeholder =
    'ACG____TTA (_ to generate; empty: free)';
  s.querySelector<HTMLInputElement>('input[name="n"]')!.value = '4';
  text.after(s);
}

async function main(): Promise<void> {
  sequencesSection();
  tabs();
  const models = await getJson<ModelsInfo>('/api/models');
  document.querySelector('#models')!.textContent = modelsLine(models);
  let play: (() => Promise<void>) | undefined;
  for (const task of Object.keys(SETUP) as Tab[]) {
    const section = document.querySelector<HTMLElement>(`[data-panel="${task}"]`)!;
    // a task the server does not know (sequences on the static site) is one it does not serve
    const info = models.tasks[task] ?? { available: false, reason: `no ${task} model here` };
    if (!info.available) {
      const note = section.querySelector<HTMLElement>('.unavailable')!;
      note.textContent = `Unavailable: ${info.reason}`;
      note.hidden = false;
      section.querySelector('form')!.hidden = true;
      section.dataset.state = 'unavailable';
      continue;
    }
    const set = SETUP[task](section, info, models);
    if (task === 'sudoku' && set) play = set.play;
    section.dataset.state = 'idle';
  }
  document.body.dataset.ready = 'true';
  // without a click: a generated puzzle solved, its cells sticking (?play=0: not)
  if (play && new URLSearchParams(location.search).get('play') !== '0') void play();
}

main().catch((e: Error) => {
  document.body.prepend(`Could not reach the server: ${e.message}`);
});
