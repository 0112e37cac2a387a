// The text panel (app:text8), and the same for sequences (a served sequences model's symbols):
// sample with a chosen sampler, NFE, temperature and seed, free or from
// a template with holes (`_` to generate, the rest given and clamped), and watch the characters
// commit: given ones marked, committed ones in ink, active ones faded to the classifier's
// confidence, showing its current argmax. A template's text is shown at its length (the model
// samples its whole length; the rest is cut, as the answer is). Download saves the texts.
import type { ModelsInfo, ServedTask, StepEvent } from './api.js';
import { RunPanel } from './run-panel.js';
import { fillSettings, formQuery } from './settings.js';

/** What a text or sequences run answers: its strings under the task's name for them. */
type StringsAnswer = { texts: string[] } | { sequences: string[] };

export const setupText = (section: HTMLElement, info: ServedTask, models: ModelsInfo) =>
  setupStrings('text', section, info, models);

/** The Sequences panel: the text panel over a sequences model's symbols (a served run folder). */
export const setupSequences = (section: HTMLElement, info: ServedTask, models: ModelsInfo) =>
  setupStrings('sequences', section, info, models);

function setupStrings(
  task: 'text' | 'sequences',
  section: HTMLElement,
  info: ServedTask,
  models: ModelsInfo,
): void {
  const form = section.querySelector<HTMLFormElement>('form')!;
  const out = section.querySelector<HTMLElement>('.texts')!;
  fillSettings(section.querySelector('fieldset')!, info, models);
  // the text of each token: a character, or a BPE token's piece
  const alphabet = info.pieces ?? Array.from(info.alphabet!);
  const L = info.length!;

  const template = form.querySelector<HTMLInputElement>('input[name="infill"]')!;
  let shown = L; // characters shown a row: the template's length, else the model's
  const draw = (s: StepEvent) => {
    const prior = panel.steps[0]?.tokens; // the given characters: committed in the prior step
    const rows = Array.from({ length: s.tokens.length / L }, (_, b) => {
      const p = document.createElement('p');
      for (let i = b * L; i < b * L + shown; i++) {
        const span = document.createElement('span');
        if (s.tokens[i]! >= 0) {
          span.textContent = alphabet[s.tokens[i]!]!;
          if ((prior?.[i] ?? -1) >= 0) span.className = 'given';
        } else {
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

  let texts: string[] = [];
  const done = (r: StringsAnswer) => {
    texts = 'texts' in r ? r.texts : r.sequences;
  };
  const result = async () => ({
    name: task === 'text' ? 'samples.txt' : 'sequences.txt',
    blob: new Blob([`${texts.join('\n')}\n`], { type: 'text/plain' }),
  });
  const panel = new RunPanel<StringsAnswer>(section, { draw, done, result });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    shown = template.value === '' ? L : Math.min(template.value.length, L);
    void panel.run(`/api/${task}/stream?${formQuery(form)}`);
  });
}
