// The written order of the domains (eslint/domains.js) names every folder of src/features once, and the README's
// "Layout" section lists the same order: a domain added, renamed or moved shows here until both say so.
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DOMAIN_ORDER } from './domains.js';

it('names every folder of src/features once, and the README lists the same order', () => {
  const folders = readdirSync('src/features', { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  expect([...DOMAIN_ORDER].sort()).toEqual(folders.sort());
  expect(new Set(DOMAIN_ORDER).size).toBe(DOMAIN_ORDER.length);
  const readme = readFileSync('README.md', 'utf8');
  const listed = /each imports only from those before it[^\n]*\n(?:[^\n]*\n){0,2}?((?: {22}[a-z· ]+\n)+)/.exec(readme)?.[1] ?? '';
  expect(listed.split(/[\s·]+/).filter(Boolean)).toEqual(DOMAIN_ORDER);
});
