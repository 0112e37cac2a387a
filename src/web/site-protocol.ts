// The messages between the static site's page and its Worker (site-worker.ts; the page's side is
// web/src/worker-transport.ts), and the site's list of models. The page asks for an API URL of
// `sjd serve` (/api/models, /api/sudoku/generate, /api/<task>/stream, with the same query) and the
// worker answers as the server would: JSON, a refusal with its status and one-line reason, or a
// stream's events. Types only, without imports that carry code, so that the page's build reads
// the declarations tsc emits for this file.
import type { ErrorAnswer, StreamEvent, TaskName } from '../serve/api-types.js';

/** The page asks: a request (`stream`: the URL is a stream's), or the cancelling of one. */
export type SiteRequest = { id: number; url: string; stream: boolean } | { cancel: number };

/** The worker answers a request `id`: once for JSON or a refusal; a stream's events, then `end`. */
export type SiteAnswer =
  | { id: number; json: unknown }
  | { id: number; refused: ErrorAnswer & { status: number } }
  | { id: number; event: StreamEvent<unknown> }
  | { id: number; end: true };

/**
 * The site's models (models/models.json, written by `sjd export-web`): each task's folder
 * (config.json and model.safetensors, relative to models/), or why the site has none.
 */
export type SiteModels = Record<TaskName, { folder: string } | { unavailable: string }>;

/** The file that lists them, in the site's models/ folder. */
export const SITE_MODELS_FILE = 'models.json';
