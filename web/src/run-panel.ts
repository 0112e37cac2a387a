// A panel's run: one stream at a time (a new run or Stop aborts the current one, which cancels its
// job on the server), the steps kept as they arrive so the time slider can replay them (it follows
// the newest step until moved), the status line, and errors shown in one line. The task's module
// draws a step and reads the final answer (`Answer`, its task's).
import { type StepEvent, streamEvents } from './api.js';

export interface Drawing<Answer> {
  /** Draws step k of the run. */
  draw(step: StepEvent): void;
  /** Shows the answer (the stream's `done` event). */
  done(answer: Answer): void;
}

export class RunPanel<Answer> {
  readonly steps: StepEvent[] = [];
  #abort: AbortController | null = null;
  #follow = true;
  readonly #status: HTMLElement;
  readonly #error: HTMLElement;
  readonly #slider: HTMLInputElement;
  readonly #stop: HTMLButtonElement;

  constructor(
    readonly section: HTMLElement,
    readonly drawing: Drawing<Answer>,
  ) {
    this.#status = section.querySelector('.status')!;
    this.#error = section.querySelector('.error')!;
    this.#slider = section.querySelector('.slider')!;
    this.#stop = section.querySelector('.stop')!;
    this.#slider.addEventListener('input', () => {
      this.#follow = Number(this.#slider.value) === this.steps.length - 1;
      this.show(Number(this.#slider.value));
    });
    this.#stop.addEventListener('click', () => this.stop());
  }

  /** The run's state for the page's readers and tests: idle, running, done, error, stopped. */
  set state(s: string) {
    this.section.dataset.state = s;
  }

  error(message: string): void {
    this.#error.textContent = message;
  }

  stop(): void {
    if (!this.#abort) return;
    this.#abort.abort();
    this.#abort = null;
    this.#stop.disabled = true;
    this.state = 'stopped';
  }

  show(k: number): void {
    const s = this.steps[k];
    if (!s) return;
    this.drawing.draw(s);
    const last = this.steps.length - 1;
    this.#status.textContent = `step ${k} of ${last}: t = ${s.t.toFixed(3)}, ${s.nfe} NFE`;
  }

  /** Streams `url` into the panel; resolves when the run ends, fails or is stopped. */
  async run(url: string): Promise<void> {
    this.stop();
    const abort = new AbortController();
    this.#abort = abort;
    this.steps.length = 0;
    this.#follow = true;
    this.#slider.disabled = true;
    this.#stop.disabled = false;
    this.error('');
    this.#status.textContent = 'waiting for the server...';
    this.section.dataset.steps = '0';
    this.state = 'running';
    try {
      for await (const e of streamEvents<Answer>(url, abort.signal)) {
        if (e.event === 'step') {
          this.steps.push(e.data);
          this.section.dataset.steps = String(this.steps.length);
          this.#slider.max = String(this.steps.length - 1);
          this.#slider.disabled = false;
          if (this.#follow) {
            this.#slider.value = this.#slider.max;
            this.show(this.steps.length - 1);
          }
        } else if (e.event === 'done') {
          this.drawing.done(e.data);
          this.state = 'done';
        } else if (e.event === 'error') {
          this.error(e.data.error);
          this.state = 'error';
        }
      }
    } catch (e) {
      if (abort.signal.aborted) return;
      this.error((e as Error).message);
      this.state = 'error';
      this.#status.textContent = '';
    } finally {
      if (this.#abort === abort) {
        this.#abort = null;
        this.#stop.disabled = true;
      }
    }
  }
}
