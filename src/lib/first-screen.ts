// The module files the first screen's islands need (React, the shared `frame` file, the renderer and each
// island's entry), listed by the build (src/lib/island-chunks.ts writes dist/first-screen.json) so that the
// layout can ask for them at once with the page's head instead of when the parser reaches each island —
// inline scripts wait for the stylesheet, so the islands' imports started only after it had arrived.
// They are asked at low priority: the stylesheet and fonts of the first paint go first (and Lighthouse
// counts a script at high priority that finishes before the paint as blocking it: docs/performance.md).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIRST_SCREEN_FILE = 'first-screen.json';

let files: string[] | undefined;

/** The files, or none under `astro dev` (nothing built). Read once per process. */
export function firstScreenModules(dist = join(process.cwd(), 'dist')): string[] {
  if (files) return files;
  const path = join(dist, FIRST_SCREEN_FILE);
  try {
    const parsed: unknown = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : [];
    files = Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string' && f.startsWith('/_astro/')) : [];
  } catch {
    files = [];
  }
  return files;
}
