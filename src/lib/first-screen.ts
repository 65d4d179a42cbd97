// The shared module files the first screen's islands import (the Preact runtime, the `frame` file and what they
// import), listed by the build (src/lib/island-chunks.ts writes dist/first-screen.json). The layout names
// them on `<html data-island-modules>` and client:eager preloads them beside the islands' own entries once
// the page has painted, so the islands' code comes in one round trip instead of three import levels.
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
