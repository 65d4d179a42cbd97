// Part of `npm run build`, after `astro build`: the prerendered pages (info pages, the blog) get what the
// server does for the others per request (src/lib/http/first-paint-css.ts) — the rules of the stylesheet
// their first paint can use inline, the whole sheet deferred, Astro's island runtime as a file written
// here (src/lib/http/shared-scripts.ts), the frame islands' strings out of their props
// (src/lib/http/island-props.ts) — and dist/_headers.json, whose
// Content-Security-Policy the front sends with each, names the new inline style and only the inline
// code the page carries (policyForPage).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { policyForPage } from '../src/lib/http/csp.ts';
import { prepareFirstPaint, withStyleSources } from '../src/lib/http/first-paint-css.ts';
import { compileBuiltSheets } from '../src/lib/http/first-paint-css-compile.ts';
import { externalizeScripts } from '../src/lib/http/shared-scripts.ts';
import { stripIslandProps } from '../src/lib/http/island-props.ts';
import { writeSharedScripts } from '../src/lib/http/shared-scripts-files.ts';

const CLIENT = 'dist/client';
const HEADERS = 'dist/_headers.json';

function* pages(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== '_astro') yield* pages(path);
    else if (entry.name.endsWith('.html')) yield path;
  }
}

const sheets = compileBuiltSheets(CLIENT);
// Astro's island runtime and directive loaders as files, for these pages and for the front's (shared-scripts.ts).
const scripts = writeSharedScripts(CLIENT);
const styles = new Map<string, { html: string; hashes: string[] }>();
let before = 0;
let after = 0;
for (const file of pages(CLIENT)) {
  const html = readFileSync(file, 'utf8');
  const external = stripIslandProps(externalizeScripts(html, scripts));
  const page = prepareFirstPaint(external, sheets);
  const address = `/${relative(CLIENT, file).split(sep).join('/')}`.replace(/(?:\/index)?\.html$/, '') || '/';
  if (page || external !== html) writeFileSync(file, page?.html ?? external);
  styles.set(address, { html: page?.html ?? external, hashes: page?.styleHashes ?? [] });
  before += html.length;
  after += (page?.html ?? external).length;
}

type Entry = { pathname: string; headers: { key: string; value: string }[] };
let entries: Entry[] = [];
try {
  entries = JSON.parse(readFileSync(HEADERS, 'utf8')) as Entry[];
} catch {
  // No prerendered page with headers: nothing to say.
}
for (const entry of entries) {
  const page = styles.get(entry.pathname.replace(/\/$/, '') || '/');
  if (!page) continue;
  for (const header of entry.headers)
    if (header.key.toLowerCase() === 'content-security-policy') header.value = withStyleSources(policyForPage(header.value, page.html), page.hashes);
}
if (entries.length) writeFileSync(HEADERS, JSON.stringify(entries, null, '\t'));
console.log(
  `[inline-css] ${styles.size} prerendered pages, ${sheets.size} stylesheets: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB of HTML`,
);
