// Words glued to a link or an emphasis in the built pages: text and an inline element written on separate
// lines of a template lose the space between them when the line break sits next to an expression (Astro,
// like JSX, drops such whitespace), so the cookie notice read "…удобнее.Подробнее". Every page type is read
// over HTTP from the built server, in both languages, with the header, the footer and the cookie notice.
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api.ts';
import { pageTypes } from '../support/page-types.ts';

const INLINE = ['a', 'strong', 'b', 'em', 'i', 'mark', 'code', 'abbr'];
const ENTITIES: Record<string, string> = { nbsp: ' ', '#160': ' ', '#xa0': ' ', amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>', laquo: '«', raquo: '»' };
const decode = (text: string) => text.replace(/&(#?\w+);/g, (_, name: string) => ENTITIES[name.toLowerCase()] ?? 'x');
const visible = (html: string) => decode(html.replace(/<[^>]*>/g, ''));
// A word, or the end of a sentence or clause, that the next word would run into.
const ENDS_A_WORD = /[\p{L}\p{N}.,;:!?»)…%]$/u;
const STARTS_A_WORD = /^[\p{L}\p{N}«(]/u;

/**
 * Each inline element whose text touches the text beside it with no space: the text before it ends a word
 * or a sentence and the element's text begins one, or the element's text ends one and the text after it
 * begins one. Returns the places as "before⟦element⟧after", visible text only.
 */
function gluedWords(page: string): string[] {
  const html = page.replace(/<(script|style|svg|template)\b[\s\S]*?<\/\1>|<!--[\s\S]*?-->/gi, '');
  const found: string[] = [];
  const open = new RegExp(`<(${INLINE.join('|')})(?=[\\s>])[^>]*>`, 'gi');
  for (const match of html.matchAll(open)) {
    const tag = (match[1] as string).toLowerCase();
    const start = match.index;
    const close = html.indexOf(`</${tag}>`, start);
    if (close < 0) continue;
    const inner = visible(html.slice(start + match[0].length, close)).trim();
    if (!inner) continue;
    // Only text right beside the element: a tag there (a block, a flex item) leaves the spacing to the CSS.
    const before = decode(/([^<>]*)$/.exec(html.slice(0, start))?.[1] ?? '');
    const after = decode(/^([^<>]*)/.exec(html.slice(close + tag.length + 3))?.[1] ?? '');
    const startsGlued = ENDS_A_WORD.test(before) && STARTS_A_WORD.test(inner);
    const endsGlued = ENDS_A_WORD.test(inner) && STARTS_A_WORD.test(after);
    if (startsGlued || endsGlued) found.push(`${before.slice(-30)}⟦${inner.slice(0, 40)}⟧${after.slice(0, 30)}`);
  }
  return found;
}

async function page(path: string, lang: 'ru' | 'en'): Promise<string> {
  const res = await fetch(new URL(path, baseUrl()), { headers: lang === 'en' ? { cookie: 'lang=en' } : {} });
  expect(res.status, path).toBeLessThan(500);
  return res.text();
}

describe('no word runs into a link or an emphasis', () => {
  it('finds the notice as it was: text written on the line before its link', () => {
    expect(gluedWords('<p>Мы используем файлы cookie, чтобы сайт работал удобнее.<a href="/info/cookies">Подробнее</a></p>')).toEqual([
      'e, чтобы сайт работал удобнее.⟦Подробнее⟧',
    ]);
    expect(gluedWords('<p>см.&nbsp;<a href="/i/12">таблицу размеров</a>, <strong>бесплатно</strong>от 10 000 ₽</p>')).toEqual([', ⟦бесплатно⟧от 10 000 ₽']);
    expect(gluedWords('<p>удобнее. <a href="/x">Подробнее</a> <a href="/y"><img alt=""></a>(<b>жирный</b>)</p>')).toEqual([]);
  });

  it.each(['ru', 'en'] as const)('on every page type, with its header, footer and cookie notice (%s)', async (lang) => {
    const paths = [...(await pageTypes(baseUrl())).map(([, path]) => path), '/info/cookies', '/about-us', '/blog', '/i/9/o-dostavke'];
    const glued: Record<string, string[]> = {};
    for (const path of [...paths, '/404', '/ops/login']) {
      const html = await page(path, lang);
      // The notice is on every storefront page, so every one of them checks its link.
      if (!path.startsWith('/ops/')) expect(html, path).toContain('data-cookie-notice');
      const found = gluedWords(html);
      if (found.length > 0) glued[path] = found;
    }
    expect(glued).toEqual({});
  });
});
