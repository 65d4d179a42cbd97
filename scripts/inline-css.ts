// Part of `npm run build`, after `astro build`: the prerendered pages (info pages, the blog) get what the
// server does for the others per request (src/lib/http/prepare-page.ts: the first paint's rules inline,
// Astro's island runtime as the file written here, the frame islands' strings out of their props), and
// dist/_headers.json, whose Content-Security-Policy the front sends with each, the policy that follows.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { compileBuiltSheets, writeDeferredSheets } from '../src/lib/http/first-paint-css-compile.ts';
import { preparePage, preparedPolicy, type PreparedPage } from '../src/lib/http/prepare-page.ts';
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
// What the pages defer in place of each sheet: the sheet without what their inline rules always carry.
const copies = writeDeferredSheets(CLIENT, sheets);
// Astro's island runtime and directive loaders as files, for these pages and for the front's (shared-scripts.ts).
const scripts = writeSharedScripts(CLIENT);
const prepared = new Map<string, PreparedPage>();
let before = 0;
let after = 0;
for (const file of pages(CLIENT)) {
  const html = readFileSync(file, 'utf8');
  const page = preparePage(html, { sheets, scripts });
  const address = `/${relative(CLIENT, file).split(sep).join('/')}`.replace(/(?:\/index)?\.html$/, '') || '/';
  if (page.html !== html) writeFileSync(file, page.html);
  prepared.set(address, page);
  before += html.length;
  after += page.html.length;
}

type Entry = { pathname: string; headers: { key: string; value: string }[] };
let entries: Entry[] = [];
try {
  entries = JSON.parse(readFileSync(HEADERS, 'utf8')) as Entry[];
} catch {
  // No prerendered page with headers: nothing to say.
}
for (const entry of entries) {
  const page = prepared.get(entry.pathname.replace(/\/$/, '') || '/');
  if (!page) continue;
  for (const header of entry.headers) if (header.key.toLowerCase() === 'content-security-policy') header.value = preparedPolicy(header.value, page);
}
if (entries.length) writeFileSync(HEADERS, JSON.stringify(entries, null, '\t'));
console.log(
  `[inline-css] ${prepared.size} prerendered pages, ${sheets.size} stylesheets (${copies} deferred copies): ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB of HTML`,
);
