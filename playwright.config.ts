import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './tests/e2e/chromium.ts';
import { freePort } from './tests/support/server.ts';

// A free port unless one is given, so two runs on one machine never collide. Set in the environment so
// the workers and the web server (tests/support/serve-e2e.ts) read the same one.
process.env['E2E_PORT'] ??= String(await freePort());
const port = Number(process.env['E2E_PORT']);
const baseURL = `http://127.0.0.1:${port}`;

// End-to-end tests run against the production build in Debian's Chromium (never a downloaded browser).
export default defineConfig({
  testDir: 'tests/e2e',
  // Its own folder: Playwright empties it at start, and test-results/reports holds the vitest report.
  outputDir: 'test-results/playwright',
  testMatch: '**/*.spec.ts',
  // Two cores: the server, the browser and one test at a time.
  workers: 1,
  retries: process.env['CI'] ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL,
    locale: 'ru-RU',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1440, height: 900 } } },
    { name: 'mobile', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  ],
  webServer: {
    command: 'node tests/support/serve-e2e.ts',
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
