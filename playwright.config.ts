import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, testChromiumPath } from './tests/e2e/chromium.ts';
import { freePort } from './tests/support/server.ts';
import { ANALYTICS_HOST } from './tests/support/analytics-host.ts';

/** Tests at once: one per core, each worker with its own shop and database (tests/e2e/fixtures.ts). */
const WORKERS = 2;

// Free ports unless given, so two runs on one machine never collide. Set in the environment so the
// workers and the web servers (tests/support/serve-e2e.ts) read the same ones.
process.env['E2E_PORTS'] ??= (await Promise.all(Array.from({ length: WORKERS }, () => freePort()))).join(',');
const ports = process.env['E2E_PORTS'].split(',').map(Number);
// The analytics provider's stand-in (tests/support/analytics-stub.ts), which Chromium finds under the
// provider's own name: no request of the page passes through the test runner.
process.env['ANALYTICS_STUB_PORT'] ??= String(await freePort());
const analyticsPort = Number(process.env['ANALYTICS_STUB_PORT']);

// End-to-end tests run against the production build in Debian's Chromium (never a downloaded browser).
export default defineConfig({
  testDir: 'tests/e2e',
  // Its own folder: Playwright empties it at start, and test-results/reports holds the vitest report.
  outputDir: 'test-results/playwright',
  testMatch: '**/*.spec.ts',
  // Two cores, two tests at once: measured 4.9 min against 5.8 with one (docs/performance.md, "The suite in 8 minutes").
  workers: WORKERS,
  retries: process.env['CI'] ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    // Each worker's own shop: tests/e2e/fixtures.ts sets baseURL from E2E_PORTS.
    baseURL: `http://127.0.0.1:${ports[0]}`,
    locale: 'ru-RU',
    // A trace recorded for every test cost a fifth of the e2e stage's time (Chromium's screencast and DOM
    // snapshots: 72 s → 57 s on checkout + accounts). CI retries a failure once, with its trace; locally
    // `npx playwright test <spec> --trace on` records one (docs/performance.md, "The suite in 8 minutes").
    trace: 'on-first-retry',
    launchOptions: { executablePath: testChromiumPath(), args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${ANALYTICS_HOST} 127.0.0.1:${analyticsPort}`] },
    // The stand-in's certificate is its own, made for the run.
    ignoreHTTPSErrors: true,
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
    { name: 'mobile', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  ],
  webServer: [
    ...ports.map((port) => ({
      command: 'node tests/support/serve-e2e.ts',
      env: { E2E_PORT: String(port) },
      url: `http://127.0.0.1:${port}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe' as const,
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
    })),
    {
      command: 'node tests/support/analytics-stub.ts',
      url: `https://127.0.0.1:${analyticsPort}/health`,
      ignoreHTTPSErrors: true,
      timeout: 30_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 5_000 },
    },
  ],
});
