// Results cached beside a run folder, so that a resumed comparison does not redo what it has
// (`sjd compare` continues across sessions): a JSON file { key, value } whose value is reused only
// when its key (what the result depends on: data, settings, the run's step) is equal. Written
// atomically; a file that is not such JSON counts as no cache.
import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { writeJsonAtomic } from './atomic.js';

/** The value cached at `path` under `key`, or undefined. */
export function readCache<T>(path: string, key: unknown): T | undefined {
  if (!existsSync(path)) return undefined;
  let cached: { key?: unknown; value?: T } | null;
  try {
    cached = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
  return isDeepStrictEqual(cached?.key, key) ? cached?.value : undefined;
}

/** Caches `value` at `path` under `key` (atomically). */
export function writeCache(path: string, key: unknown, value: unknown): void {
  writeJsonAtomic(path, { key, value });
}

/** The value cached at `path` under `key`, else `compute()`'s, cached there. */
export function cached<T>(path: string, key: unknown, compute: () => T): T {
  const hit = readCache<T>(path, key);
  if (hit !== undefined) return hit;
  const value = compute();
  writeCache(path, key, value);
  return value;
}
