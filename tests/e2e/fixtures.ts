// Every e2e page gets the analytics provider's script stubbed: it lives outside this machine, and a
// failed request would show up as a console error in the tests that watch for them.
import { test as base } from '@playwright/test';

export const test = base.extend<{ stubAnalytics: void }>({
  stubAnalytics: [
    async ({ context }, use) => {
      await context.route('https://mc.yandex.ru/**', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
      await use();
    },
    { auto: true },
  ],
});

export { expect } from '@playwright/test';
