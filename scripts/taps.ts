// `npm run taps [-- http://127.0.0.1:4321] [--runs 5] [--control size]`: how long a shopper waits for the
// answer to a tap made as soon as the control shows, on the throttled phone (scripts/throttled-phone.ts),
// each run a first visit in a fresh context. DESIGN §7 and issue 37: within 200 ms where HTML can answer
// (the catalogue, the menu, the search toggle and field, the account, wishlist and cart links, a size),
// within 1,000 ms where script must (add to cart, the login and buyout modals).
// Measured in the page, on the page's clock: from the input event's own time stamp (when the finger came
// down, however busy the main thread was) to the first animation frame in which the answer shows — the
// panel or dialog visible, the size checked, the letter in the field, the toast — or to the moment a link's
// navigation starts (its click not prevented). A tap held for an island's hydration is answered when the
// island answers it. Each figure is the median of --runs runs; the table goes to bench-results/taps.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../tests/e2e/chromium.ts';
import { inStock } from '../tests/support/in-stock.ts';
import { THROTTLING, median, phonePage } from './throttled-phone.ts';
import { commandLine, httpAddress, oneOf, wholeNumber } from './cli.ts';

const cli = commandLine('npm run taps -- [URL] [--runs N] [--control NAME]', {
  allowPositionals: true,
  options: { runs: { type: 'string', default: '5' }, control: { type: 'string' } },
});
if (cli.positionals.length > 1) cli.fail(`one address, not ${cli.positionals.length}`);
const given = cli.positionals[0] === undefined ? undefined : httpAddress(cli, cli.positionals[0]);
const runs = wholeNumber(cli, '--runs', cli.values.runs, { min: 1 });
// Loaded once the arguments are known: a wrong one is answered at once, not after Playwright and the database (scripts/cli.ts).
const { chromium } = await import('playwright-core');
const { startTestServer } = await import('../tests/support/server.ts');

/**
 * What shows the answer: a dialog or panel of that name shown, an element shown, a radio checked, text in a
 * field, a text on the page; or only a link's navigation starting.
 */
type Answer = { dialog: string } | { visible: string } | { checked: string } | { value: string } | { text: string } | { navigation: true };

interface Step {
  /** The control, found on a settled page to learn where it is: the finger does not wait for the page. */
  at: (page: Page) => Locator;
  /** Typed after the tap (the search field). */
  type?: string;
}

interface Control {
  name: string;
  /** 200 or 1,000 ms (issue 37). */
  budget: number;
  path: 'home' | 'product';
  /** The taps, the first at the first contentful paint, the next ones 150 ms apart; the last is timed. */
  steps: Step[];
  answer: Answer;
}

const bottomNav = (page: Page) => page.getByRole('navigation', { name: 'Мобильная навигация' });
const sizes = (page: Page) => page.getByRole('radiogroup', { name: 'Размер' }).getByRole('radio').and(page.locator(':not([disabled])'));
const searchToggle = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Поиск', exact: true });
const LOGIN = { dialog: 'Личный кабинет' };

const CONTROLS: Control[] = [
  {
    name: 'catalogue',
    budget: 200,
    path: 'home',
    steps: [{ at: (p) => bottomNav(p).getByRole('button', { name: 'Каталог' }) }],
    answer: { dialog: 'Каталог' },
  },
  { name: 'menu', budget: 200, path: 'home', steps: [{ at: (p) => p.getByRole('banner').getByRole('button', { name: 'Меню' }) }], answer: { dialog: 'Меню' } },
  {
    name: 'search toggle',
    budget: 200,
    path: 'home',
    steps: [{ at: searchToggle }],
    answer: { visible: '#search-panel input[type="search"], header input[type="search"]' },
  },
  {
    name: 'search field',
    budget: 200,
    path: 'home',
    steps: [{ at: searchToggle }, { at: (p) => p.locator('input[type="search"]:visible'), type: 'п' }],
    answer: { value: 'input[type="search"]' },
  },
  { name: 'account', budget: 200, path: 'home', steps: [{ at: (p) => bottomNav(p).getByRole('button', { name: 'Профиль' }) }], answer: LOGIN },
  { name: 'wishlist', budget: 200, path: 'home', steps: [{ at: (p) => bottomNav(p).getByRole('button', { name: 'Избранное' }) }], answer: LOGIN },
  { name: 'cart', budget: 200, path: 'home', steps: [{ at: (p) => bottomNav(p).getByRole('link', { name: 'Корзина' }) }], answer: { navigation: true } },
  { name: 'size', budget: 200, path: 'product', steps: [{ at: (p) => sizes(p).first() }], answer: { checked: '[role="radiogroup"] input:checked' } },
  {
    name: 'add to cart',
    budget: 1000,
    path: 'product',
    steps: [{ at: (p) => sizes(p).first() }, { at: (p) => p.getByRole('button', { name: 'Добавить в корзину' }) }],
    answer: { text: 'Товар добавлен в корзину' },
  },
  {
    name: 'buyout modal',
    budget: 1000,
    path: 'home',
    steps: [{ at: (p) => p.getByRole('banner').getByRole('button', { name: 'Выкуп' }) }],
    answer: { dialog: 'Заявка на поиск и выкуп товара' },
  },
];
const only =
  cli.values.control === undefined
    ? undefined
    : oneOf(
        cli,
        '--control',
        cli.values.control,
        CONTROLS.map((c) => c.name),
      );

/**
 * Set in every page before its own scripts: the timed input event (after `skip` others) starts the clock (its own
 * time stamp); every animation frame after it checks the answer; a link's click that nothing prevented is an
 * answer too (the navigation starts). Times go out on the console, in ms since the epoch.
 */
const WATCH = ({ answer, skip }: { answer: Answer; skip: number }) => {
  let inputs = 0;
  const now = () => performance.timeOrigin + performance.now();
  let started = false;
  let done = false;
  const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const shown = (): boolean => {
    if ('navigation' in answer) return false;
    if ('dialog' in answer) {
      const name = answer.dialog;
      // Named by aria-label, or (the modals) by the heading aria-labelledby points at.
      return [...document.querySelectorAll('[role="dialog"], dialog, [popover]')].some(
        (el) =>
          visible(el) &&
          (el.getAttribute('aria-label') === name || document.getElementById(el.getAttribute('aria-labelledby') ?? '')?.textContent?.trim() === name),
      );
    }
    if ('visible' in answer) return [...document.querySelectorAll(answer.visible)].some(visible);
    if ('checked' in answer) return document.querySelector(answer.checked) !== null;
    if ('value' in answer) return [...document.querySelectorAll<HTMLInputElement>(answer.value)].some((el) => el.value.length > 0);
    return document.body?.innerText.includes(answer.text) ?? false;
  };
  const found = () => {
    if (done) return;
    done = true;
    console.debug(`tap:answer ${now()}`);
  };
  const frame = () => {
    if (done) return;
    if (shown()) found();
    else requestAnimationFrame(frame);
  };
  const start = (event: Event) => {
    // A tap is one pointerdown; typing is timed from its first character.
    if (started || inputs++ < skip) return;
    started = true;
    console.debug(`tap:start ${performance.timeOrigin + event.timeStamp}`);
    requestAnimationFrame(frame);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') console.debug(`tap:fcp ${performance.timeOrigin + entry.startTime}`);
  }).observe({ type: 'paint', buffered: true });
  addEventListener('pointerdown', start, true);
  // Typing Cyrillic, the browser inserts text with no key events: its beforeinput is the keystroke.
  addEventListener('beforeinput', start, true);
  // Bubbling to the window unprevented: the browser follows the link now.
  addEventListener('click', (event) => {
    if (started && !event.defaultPrevented && event.target instanceof Element && event.target.closest('a[href]')) found();
  });
};

/** Where a step's control is on the screen, once the page is scrolled by scrollY. */
interface Place {
  x: number;
  y: number;
  scrollY: number;
}

/** Where each step's control is on the settled page (the same viewport, unthrottled). */
async function places(page: Page, url: string, control: Control): Promise<Place[]> {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0);
  const found: Place[] = [];
  for (const step of control.steps) {
    // Below the fold (the product page's sizes on a phone) the shopper scrolls to it first.
    await step.at(page).scrollIntoViewIfNeeded({ timeout: 10_000 });
    const box = await step.at(page).boundingBox({ timeout: 10_000 });
    if (!box) throw new Error(`${control.name}: no place for a step`);
    found.push({ x: box.x + box.width / 2, y: box.y + box.height / 2, scrollY: await page.evaluate(() => Math.round(scrollY)) });
    await step.at(page).tap();
  }
  return found;
}

async function measure(page: Page, url: string, control: Control, where: Place[]): Promise<{ ms: number; afterFcp: number }> {
  let start = NaN;
  let answered = NaN;
  let fcp = NaN;
  page.on('console', (message) => {
    const [kind, at] = message.text().split(' ');
    if (process.env['TAPS_DEBUG'] && kind?.startsWith('tap:')) console.log(message.text());
    if (kind === 'tap:start' && Number.isNaN(start)) start = Number(at);
    if (kind === 'tap:answer' && Number.isNaN(answered)) answered = Number(at);
    if (kind === 'tap:fcp' && Number.isNaN(fcp)) fcp = Number(at);
  });
  // A link's navigation may take the page (and its last console message) away first: its request is the answer.
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && request.url() !== url && Number.isNaN(answered)) answered = Date.now();
  });
  // The first contentful paint as the browser reports it, not as the page's busy main thread would.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.enable');
  await cdp.send('Page.setLifecycleEventsEnabled', { enabled: true });
  const painted = new Promise<void>((resolve) => cdp.on('Page.lifecycleEvent', (e) => e.name === 'firstContentfulPaint' && resolve()));
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  await painted;
  let scrolled = 0;
  for (const [k, step] of control.steps.entries()) {
    if (k > 0) await new Promise((r) => setTimeout(r, 150));
    const { x, y, scrollY } = where[k] as Place;
    if (scrollY !== scrolled) {
      // A swipe the compositor scrolls without the page's main thread (a wheel here: CDP's synthesized touch
      // gesture did not scroll the emulated phone).
      await page.mouse.wheel(0, scrollY - scrolled);
      await new Promise((r) => setTimeout(r, 100));
      scrolled = scrollY;
    }
    await page.touchscreen.tap(x, y);
    if (step.type) await page.keyboard.type(step.type);
  }
  const deadline = Date.now() + 15_000;
  while (Number.isNaN(answered) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (process.env['TAPS_DEBUG']) {
    console.log(control.name, where, await page.evaluate(() => scrollY).catch(() => 'gone'));
    await page.screenshot({ path: `/tmp/taps-${control.name}.png` }).catch(() => undefined);
  }
  return { ms: Math.round(answered - start), afterFcp: Math.round(start - fcp) };
}

const server = given ? undefined : await startTestServer({ label: 'taps', seedProducts: 2000, env: { LOG_LEVEL: 'warn' } });
const base = given ?? (server?.baseUrl as string);
try {
  const [first] = await inStock(base, 1);
  const paths = { home: '/', product: first?.url ?? '/' };
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  const rows: { control: string; budget: number; ms: number; runs: number[]; tappedAfterFcp: number }[] = [];
  try {
    for (const control of CONTROLS.filter((c) => !only || c.name === only)) {
      const url = new URL(paths[control.path], base).href;
      const settled = await phonePage(browser, undefined, { throttled: false });
      const where = await places(settled, url, control).finally(() => settled.context().close());
      const skip = control.steps.length - 1 + (control.steps.at(-1)?.type ? 1 : 0);
      const measured: { ms: number; afterFcp: number }[] = [];
      for (let run = 0; run < runs; run++) {
        const page = await phonePage(browser, async (context) => {
          await context.addInitScript(WATCH, { answer: control.answer, skip });
        });
        try {
          measured.push(await measure(page, url, control, where));
        } finally {
          await page.context().close();
        }
      }
      const row = {
        control: control.name,
        budget: control.budget,
        ms: median(measured.map((m) => m.ms)),
        runs: measured.map((m) => m.ms),
        tappedAfterFcp: median(measured.map((m) => m.afterFcp)),
      };
      rows.push(row);
      console.log(`${row.control}: ${row.ms} ms (budget ${row.budget}; runs ${row.runs.join(', ')}; tapped ${row.tappedAfterFcp} ms after FCP)`);
    }
  } finally {
    await browser.close();
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/taps.json', JSON.stringify({ throttling: THROTTLING, runs, rows }, null, 2));
  console.log('\n| control | tap to answer (median) | budget | runs | tapped after FCP |\n|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.control} | ${r.ms} ms | ${r.budget} ms | ${r.runs.join(', ')} | ${r.tappedAfterFcp} ms |`);
} finally {
  await server?.stop();
}
