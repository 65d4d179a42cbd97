// Whether the built shop (dist/) is older than what it is built from: `npm start` builds again then,
// and the tests that start the shop through npm refuse to (a build under a running test server breaks it).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = 'dist/server/entry.mjs';
const SOURCES = ['src', 'public/icons', 'drizzle', 'astro.config.mjs', 'uno.config.ts', 'package.json'];

/** @param {string} dir @returns {number} */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when there is no build, or a source changed after it. */
export function buildIsStale() {
  const builtAt = existsSync(ENTRY) ? statSync(ENTRY).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.filter(existsSync).map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
  return builtAt < changedAt;
}
