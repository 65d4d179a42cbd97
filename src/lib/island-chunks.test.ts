import { expect, it } from 'vitest';
import { takesReact } from './island-chunks.ts';

it('finds React bundled or imported by a chunk, and lets Preact and its layer through', () => {
  expect(takesReact({ moduleIds: ['/p/node_modules/react-dom/cjs/react-dom.production.js'], imports: [] })).toContain('react-dom');
  expect(takesReact({ moduleIds: ['/p/node_modules/scheduler/index.js'], imports: [] })).toContain('scheduler');
  expect(takesReact({ moduleIds: [], imports: ['react'] })).toBe('react');
  expect(takesReact({ moduleIds: [], imports: ['react/jsx-runtime'] })).toBe('react/jsx-runtime');
  expect(
    takesReact({
      moduleIds: ['/p/node_modules/preact/compat/dist/compat.module.js', '/p/node_modules/react-hook-form/dist/index.esm.mjs'],
      imports: ['preact/compat'],
    }),
  ).toBeUndefined();
  expect(takesReact({ moduleIds: [], imports: ['react-hook-form'] })).toBe('react-hook-form');
  expect(takesReact({ moduleIds: ['/p/src/features/layout/Header.tsx'], imports: ['preact', 'preact/compat', 'nanostores'] })).toBeUndefined();
});
