// The sampling settings of a panel: sampler, NFE, temperature and seed (and Sudoku's retries and
// rules), filled from the task's model (its samplers and the defaults of its command, so the same
// seed gives the command's answer) and the server's limits; read back as query parameters.
import type { ModelsInfo, ServedTask } from './api.js';

function field(label: string, input: HTMLInputElement | HTMLSelectElement): HTMLLabelElement {
  const l = document.createElement('label');
  l.append(label, input);
  return l;
}

function number(name: string, value: number, min: number, max: number, step: string) {
  const input = document.createElement('input');
  Object.assign(input, { type: 'number', name, value: String(value), min, max, step });
  return input;
}

export function fillSettings(fieldset: HTMLFieldSetElement, info: ServedTask, models: ModelsInfo) {
  const d = info.defaults;
  const sampler = document.createElement('select');
  sampler.name = 'sampler';
  for (const s of info.samplers) sampler.add(new Option(s, s, s === d.sampler, s === d.sampler));
  const { nfe, temperature, seed } = models.limits;
  fieldset.replaceChildren(
    field('Sampler', sampler),
    field('NFE', number('nfe', d.nfe, nfe.min, nfe.max, '1')),
    field(
      'Temperature',
      number('temperature', d.temperature, temperature.min, temperature.max, 'any'),
    ),
    field('Seed', number('seed', 0, seed.min, seed.max, '1')),
  );
  // Sudoku: how often a board that breaks the rules is solved again (within the NFE budget).
  if (info.retries !== undefined) {
    const { min, max } = models.limits.retries;
    fieldset.append(field('Retries', number('retries', info.retries, min, max, '1')));
  }
  // Sudoku: whether the sampler uses the rules (a searching sampler needs them).
  if (d.rules !== undefined) {
    const rules = document.createElement('select');
    rules.name = 'rules';
    for (const on of [true, false])
      rules.add(new Option(on ? 'on' : 'off', String(on), on === d.rules, on === d.rules));
    fieldset.append(field('Rules', rules));
  }
}

/** The form's fields as query parameters (empty ones left out: the defaults), then `set`. */
export function formQuery(form: HTMLFormElement, set: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v !== '') q.set(k, v);
  for (const [k, v] of Object.entries(set)) q.set(k, v);
  return q.toString();
}
