// A refused request as the API answers it, apart from HTTP (errors.ts sends it): an error with
// its status, and the one-line body every failure has. The server and the static site's worker
// (src/web/site-worker.ts) both answer with these.
import type { ErrorAnswer } from './api-types.js';

/** An error with the status it answers with. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const firstLine = (s: string) => s.split('\n')[0]!;

/** The body of a failed request: the message's first line. */
export const errorAnswer = (message: string): ErrorAnswer => ({ error: firstLine(message) });
