// The frame's parts are rendered once per what they show and reused (docs/decisions/024, issue 59). A reused
// part must leave each page as a rendered one would: Astro's island runtime once, every island's React
// identifiers its own, the bottom navigation marking the page's own section, each language its own words.
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api.ts';
import { pageTypes } from '../support/page-types.ts';

async function page(path: string, lang: 'ru' | 'en' = 'ru'): Promise<string> {
  const res = await fetch(new URL(path, baseUrl()), { headers: lang === 'en' ? { cookie: 'lang=en' } : {} });
  expect(res.status, path).toBe(200);
  return res.text();
}

const count = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].length;
/** The item the bottom navigation marks as the current page. */
function bottomNavCurrent(html: string): string | undefined {
  const nav = /<nav aria-label="[^"]*" class="fixed inset-x-0 bottom-0[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
  return /<(?:a|button|span)[^>]*aria-current="page"[^>]*>[\s\S]*?<span class="text-\[10px\]">([^<]*)<\/span>/.exec(nav)?.[1];
}

describe('the frame rendered once and reused', () => {
  it('leaves every page type, asked twice, with one island runtime, unique ids and unique React prefixes', async () => {
    const paths = (await pageTypes(baseUrl())).map(([, path]) => path);
    // Each path twice, interleaved: the second visit of each reuses parts another page type rendered first.
    for (const path of [...paths, ...paths.reverse()]) {
      const html = await page(path);
      expect(count(html, /<script type="module" fetchpriority="low" src="\/_astro\/shared-[^"]+\.js"><\/script>/g), path).toBe(1);
      // Not inline as well: the file carries the runtime, claimed by the reused header (render-once.server.ts).
      expect(html, path).not.toContain('customElements.define("astro-island"');
      const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
      expect(
        ids.filter((id, i) => ids.indexOf(id) !== i),
        path,
      ).toEqual([]);
      const prefixes = [...html.matchAll(/<astro-island[^>]*\sprefix="([^"]+)"/g)].map((m) => m[1]);
      expect(
        prefixes.filter((p, i) => prefixes.indexOf(p) !== i),
        path,
      ).toEqual([]);
      // The header, the bottom navigation, the modals and the toaster are on every page, hydrated.
      for (const island of ['Header', 'BottomNav', 'Modals', 'Toaster'])
        expect(html, `${path}: ${island}`).toMatch(new RegExp(`<astro-island[^>]*component-url="[^"]*${island}[^"]*"`));
      // The frame islands' strings come from the browser's cached module, not each page (island-props.ts):
      // taken out of the reused parts' props once.
      for (const [island, prop] of [
        ['Header', 'labels'],
        ['BottomNav', 'labels'],
        ['BottomNav', 'accountMenu'],
      ] as const) {
        const props = new RegExp(`<astro-island[^>]*component-url="/_astro/${island}\\.[^"]*"[^>]*props="([^"]*)"`).exec(html)?.[1];
        expect(props, `${path}: ${island}`).toBeDefined();
        expect(props, `${path}: ${island}`).not.toContain(`&quot;${prop}&quot;`);
      }
    }
  });

  it('marks the page’s own section in the bottom navigation, whichever page rendered the frame first', async () => {
    const [, , , , [, product]] = (await pageTypes(baseUrl())) as [unknown, unknown, unknown, unknown, [unknown, string]];
    expect(bottomNavCurrent(await page('/'))).toBe('Главная');
    expect(bottomNavCurrent(await page(product))).toBeUndefined();
    expect(bottomNavCurrent(await page('/brands'))).toBe('Каталог');
    expect(bottomNavCurrent(await page('/cart'))).toBe('Корзина');
    expect(bottomNavCurrent(await page('/'))).toBe('Главная');
    expect(bottomNavCurrent(await page('/catalog'))).toBe('Каталог');
  });

  it('keeps one frame per language', async () => {
    const english = await page('/brands', 'en');
    const russian = await page('/brands');
    expect(english).toContain('<html lang="en"');
    expect(bottomNavCurrent(english)).toBe('Catalogue');
    expect(bottomNavCurrent(russian)).toBe('Каталог');
  });
});
