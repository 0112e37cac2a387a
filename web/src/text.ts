// The text panel (issue #15; app:text8): sample with a chosen sampler, NFE, temperature and seed,
// and watch the characters commit: committed ones in ink, active ones faded to the classifier's
// confidence, showing its current argmax.
import type { ModelsInfo, ServedTask, StepEvent, TextSampleAnswer } from './api.js';
import { RunPanel } from './run-panel.js';
import { fillSettings, formQuery } from './settings.js';

export function setupText(section: HTMLElement, info: ServedTask, models: ModelsInfo): void {
  const form = section.querySelector<HTMLFormElement>('form')!;
  const out = section.querySelector<HTMLElement>('.texts')!;
  fillSettings(section.querySelector('fieldset')!, info, models);
  const alphabet = info.alphabet!;
  const L = info.length!;

  const draw = (s: StepEvent) => {
    const rows = Array.from({ length: s.tokens.length / L }, (_, b) => {
      const p = document.createElement('p');
      for (let i = b * L; i < (b + 1) * L; i++) {
        const span = document.createElement('span');
        if (s.tokens[i]! >= 0) span.textContent = alphabet[s.tokens[i]!]!;
        else {
          span.className = 'active';
          span.textContent = s.argmax[i]! >= 0 ? alphabet[s.argmax[i]!]! : '_';
          span.style.opacity = (0.15 + 0.5 * s.confidence[i]!).toFixed(2);
        }
        p.append(span);
      }
      return p;
    });
    out.replaceChildren(...rows);
  };

  const panel = new RunPanel<TextSampleAnswer>(section, { draw, done: () => {} });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void panel.run(`/api/text/stream?${formQuery(form)}`);
  });
}
