// The scripts of shared-scripts.ts, from the installed Astro itself, so that the build that writes the
// files and the front that points pages at them agree on every byte and name. Node only.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import islandRuntime from 'astro/runtime/server/astro-island.prebuilt.js';
import idle from 'astro/runtime/client/idle.prebuilt.js';
import load from 'astro/runtime/client/load.prebuilt.js';
import visible from 'astro/runtime/client/visible.prebuilt.js';
import { ISLAND_STYLES } from 'astro/runtime/server/astro-island-styles.js';
import type { SharedScripts } from './shared-scripts.ts';

/** Astro's built-in directives' loaders, then its island runtime (client:eager's loader stays inline). */
const TEXTS = [idle, load, visible, islandRuntime];
const fileText = () => TEXTS.map((text) => `${text};\n`).join('');

export function sharedScripts(): SharedScripts {
  // The islands' `display: contents`, which global.css says too: one inline style (and hash) less.
  return { texts: TEXTS, path: `/_astro/shared-${createHash('sha256').update(fileText()).digest('hex').slice(0, 10)}.js`, styles: [ISLAND_STYLES] };
}

/** Writes the shared scripts' file into the built client (before the build compresses its assets). */
export function writeSharedScripts(clientDir: string): SharedScripts {
  const scripts = sharedScripts();
  mkdirSync(join(clientDir, '_astro'), { recursive: true });
  writeFileSync(join(clientDir, scripts.path), fileText());
  return scripts;
}
