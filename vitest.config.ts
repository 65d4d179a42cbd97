import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { frameLabelsChunks } from './src/features/layout/labels-chunk.ts';
import { LongestFirst } from './tests/support/sequencer.ts';

export default defineConfig({
  // The frame islands' strings per language (layout.labels.client.ts), as the build makes them.
  plugins: [frameLabelsChunks()],
  resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    // Two cores: two test files at once (INTEGRATION_WORKERS in tests/support/shared-shop.ts says the same).
    maxWorkers: 2,
    // The longest files first, unit and integration mixed (tests/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'eslint/**/*.test.ts'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/integration/global-setup.ts'],
          // Two files at once, each worker with its own shop and database (tests/support/shared-shop.ts).
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        // `npm run bench` only: service timings on a seeded catalogue (never part of npm test).
        test: { name: 'bench', include: ['tests/bench/**/*.bench.ts'], environment: 'node', testTimeout: 900_000, hookTimeout: 900_000 },
      },
    ],
  },
});
