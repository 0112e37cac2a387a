// A panel's run: one stream at a time (a new run or Stop aborts the current one, which cancels its
// job on the server), the steps kept as they arrive so the time slider can replay them (it follows
// the newest step until moved), the status line, and errors shown in one line. The task's module
// draws a step and reads the final answer (`Answer`, its task's). With a pace, the steps are
// drawn at most one every `paceMs` while following (a solve streams in about a second; paced, the
// cells can be seen sticking), and the answer is shown, and the run `done`, once the last is drawn.
import { type StepEvent, streamEvents } from './api.js';

export interface Drawing<Answer> {
  /** Draws step k of the run. */
  draw(step: StepEvent): void;
  /** Shows the answer (the stream's `done` event). */
  done(answer: Answer): void;
  /** The result as a file to download (the panel's Download button), once a run is done. */
  result(): Promise<{ name: string; blob: Blob }>;
}

/** `blob` saved by the browser as `name`. */
function save(name: string, blob: Blob): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

export class RunPanel<Answer> {
  readonly steps: StepEvent[] = [];
  #abort: AbortController | null = null;
  #follow = true;
  readonly #status: HTMLElement;
  readonly #error: HTMLElement;
  readonly #slider: HTMLInputElement;
  readonly #stop: HTMLButtonElement;
  readonly #download: HTMLButtonElement;
  #shown = -1; // the step drawn while following
  #timer: ReturnType<typeof setTimeout> | null = null;
  #answer: { value: Answer } | null = null; // the stream's answer, shown once its steps are

  constructor(
    readonly section: HTMLElement,
    readonly drawing: Drawing<Answer>,
    readonly paceMs = 0,
  ) {
    this.#status = section.querySelector('.status')!;
    this.#error = section.querySelector('.error')!;
    this.#slider = section.querySelector('.slider')!;
    this.#stop = section.querySelector('.stop')!;
    this.#download = section.querySelector('.download')!;
    this.#download.addEventListener('click', async () => {
      const { name, blob } = await this.drawing.result();
      save(name, blob);
    });
    this.#slider.addEventListener('input', () => {
      this.#follow = Number(this.#slider.value) === this.steps.length - 1;
      this.show(Number(this.#slider.value));
      if (this.#follow) this.advance(); // back at the newest: the answer, if it came meanwhile
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
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#answer = null;
    if (!this.#abort) return;
    this.#abort.abort();
    this.#abort = null;
    this.#stop.disabled = true;
    this.state = 'stopped';
  }

  show(k: number): void {
    const s = this.steps[k];
    if (!s) return;
    this.#shown = k;
    this.drawing.draw(s);
    const last = this.steps.length - 1;
    this.#status.textContent = `step ${k} of ${last}: t = ${s.t.toFixed(3)}, ${s.nfe} NFE`;
  }

  /**
   * Draws the next step while following (all of them at once without a pace), then, the last
   * drawn, the answer the stream gave.
   */
  private advance(): void {
    if (this.#timer) return; // a paced step is due
    const last = this.steps.length - 1;
    if (this.#follow && this.#shown < last) {
      const k = this.paceMs > 0 ? this.#shown + 1 : last;
      this.#slider.value = String(k);
      this.show(k);
      if (this.paceMs > 0)
        this.#timer = setTimeout(() => {
          this.#timer = null;
          this.advance();
        }, this.paceMs);
      return;
    }
    if (this.#answer) {
      this.drawing.done(this.#answer.value);
      this.#answer = null;
      this.state = 'done';
      this.#download.disabled = false;
    }
  }

  /** Streams `url` into the panel; resolves when the run ends, fails or is stopped. */
  async run(url: string): Promise<void> {
    this.stop();
    const abort = new AbortController();
    this.#abort = abort;
    this.steps.length = 0;
    this.#shown = -1;
    this.#follow = true;
    this.#slider.disabled = true;
    this.#stop.disabled = false;
    this.#download.disabled = true;
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
          this.advance();
        } else if (e.event === 'done') {
          this.#answer = { value: e.data };
          this.advance();
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
