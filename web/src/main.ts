// sjd serve's page: tabs for the three tasks, each set up from /api/models (its samplers and
// defaults), or marked unavailable with the server's reason when its model is not served.
import { getJson, type ModelsInfo, type ServedTask, type TaskName } from './api.js';
import { setupImage } from './image.js';
import { setupSudoku } from './sudoku.js';
import { setupText } from './text.js';

const SETUP: Record<
  TaskName,
  (section: HTMLElement, info: ServedTask, models: ModelsInfo) => void
> = {
  sudoku: setupSudoku,
  text: setupText,
  image: setupImage,
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

async function main(): Promise<void> {
  tabs();
  const models = await getJson<ModelsInfo>('/api/models');
  for (const task of Object.keys(SETUP) as TaskName[]) {
    const section = document.querySelector<HTMLElement>(`[data-panel="${task}"]`)!;
    const info = models.tasks[task];
    if (!info.available) {
      const note = section.querySelector<HTMLElement>('.unavailable')!;
      note.textContent = `Unavailable: ${info.reason}`;
      note.hidden = false;
      section.querySelector('form')!.hidden = true;
      section.dataset.state = 'unavailable';
      continue;
    }
    SETUP[task](section, info, models);
    section.dataset.state = 'idle';
  }
  document.body.dataset.ready = 'true';
}

main().catch((e: Error) => {
  document.body.prepend(`Could not reach the server: ${e.message}`);
});
