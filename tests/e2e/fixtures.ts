// Every e2e page finds the analytics provider's script at a stand-in (tests/support/analytics-stub.ts,
// reached under the provider's name: playwright.config.ts): the provider lives outside this machine, and
// a failed request would show up as a console error in the tests that watch for them. And every e2e test
// is a CSP test: Chromium reports each script, style or resource the page's policy blocks on the console,
// and a test whose pages were refused anything fails with what was refused.
// Each worker has its own shop (playwright.config.ts starts one per worker on E2E_PORTS): the tests of two
// workers never meet in each other's data, audit log or rate limits.
import { test as base } from '@playwright/test';

/** This worker's shop's port (`test.info()` of the test running). */
export function e2ePort(): number {
  const ports = (process.env['E2E_PORTS'] ?? '').split(',').map(Number);
  return ports[base.info().parallelIndex % ports.length] as number;
}

export const test = base.extend<{ cspGuard: void }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(`http://127.0.0.1:${e2ePort()}`),
  cspGuard: [
    async ({ page }, use) => {
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      // A refusal the page's code catches (zod's eval probe was one) logs nothing: Chrome still reports
      // it as an issue of the page, which Lighthouse's best practices count.
      const cdp = await page.context().newCDPSession(page);
      cdp.on('Audits.issueAdded', ({ issue }) => {
        if (issue.code === 'ContentSecurityPolicyIssue') refused.push(`CSP issue: ${JSON.stringify(issue.details.contentSecurityPolicyIssueDetails)}`);
      });
      await cdp.send('Audits.enable');
      await use();
      if (refused.length > 0) throw new Error(`The page's Content-Security-Policy refused:\n${refused.join('\n')}`);
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
