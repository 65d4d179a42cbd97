import { expect, it } from 'vitest';
import { takesPreact } from './island-chunks.ts';

it('finds Preact bundled or imported by a chunk, and lets React and its libraries through', () => {
  expect(takesPreact({ moduleIds: ['/p/node_modules/preact/compat/dist/compat.module.js'], imports: [] })).toContain('preact/compat');
  expect(takesPreact({ moduleIds: ['/p/node_modules/@preact/signals/dist/signals.mjs'], imports: [] })).toContain('@preact/signals');
  expect(takesPreact({ moduleIds: ['/p/node_modules/@astrojs/preact/dist/client.js'], imports: [] })).toContain('@astrojs/preact');
  expect(takesPreact({ moduleIds: [], imports: ['preact'] })).toBe('preact');
  expect(takesPreact({ moduleIds: [], imports: ['preact/jsx-runtime'] })).toBe('preact/jsx-runtime');
  expect(
    takesPreact({
      moduleIds: ['/p/node_modules/react-dom/cjs/react-dom-client.production.js', '/p/node_modules/react-hook-form/dist/index.esm.mjs'],
      imports: ['react', 'react-dom/client'],
    }),
  ).toBeUndefined();
  // A module of the shop's own whose name merely contains the word is not the library.
  expect(takesPreact({ moduleIds: ['/p/src/features/layout/preactions.ts'], imports: ['nanostores'] })).toBeUndefined();
});
