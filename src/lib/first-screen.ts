// The shared module files the first screen's islands import (React, the `frame` file and what they
// import), listed by the build (src/lib/island-chunks.ts writes dist/first-screen.json), and the frame's
// strings in the page's language. The layout names
// them on `<html data-island-modules>` and client:eager preloads them beside the islands' own entries once
// the page has painted, so the islands' code comes in one round trip instead of three import levels.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FIRST_SCREEN_FILE = 'first-screen.json';

interface FirstScreen {
  modules: string[];
  /** The frame's strings' module by language. */
  labels: Record<string, string>;
}

let files: FirstScreen | undefined;

const isFile = (f: unknown): f is string => typeof f === 'string' && f.startsWith('/_astro/');

/** The files, with the frame's strings in this language; none under `astro dev` (nothing built). Read once per process. */
export function firstScreenModules(locale?: string, dist = join(process.cwd(), 'dist')): string[] {
  if (!files) {
    const path = join(dist, FIRST_SCREEN_FILE);
    files = { modules: [], labels: {} };
    try {
      const parsed = (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {}) as Partial<FirstScreen>;
      files.modules = Array.isArray(parsed.modules) ? parsed.modules.filter(isFile) : [];
      for (const [language, file] of Object.entries(parsed.labels ?? {})) if (isFile(file)) files.labels[language] = file;
    } catch {
      // As under `astro dev`.
    }
  }
  const labels = locale ? files.labels[locale] : undefined;
  return labels ? [...files.modules, labels] : files.modules;
}
