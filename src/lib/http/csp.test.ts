import { describe, expect, it } from 'vitest';
import { cspHash, cspHashOnce, policyForPage } from './csp.ts';

describe('a page policy names only the inline code the page has', () => {
  const boot = "try{document.documentElement.dataset.x='1'}catch(e){}";
  const style = '.a{color:red}';
  const policy = [
    "default-src 'self'",
    `script-src 'self' '${cspHash(boot)}' '${cspHash('other()')}' https://mc.yandex.ru`,
    `style-src 'self' '${cspHash(style)}' '${cspHash('.b{}')}'`,
    "frame-ancestors 'none'",
  ].join('; ');

  it('drops the hashes of scripts and styles the page does not carry, keeping every other source', () => {
    const html = `<head><script>${boot}</script><script type="module" src="/_astro/x.js"></script><style>${style}</style></head>`;
    expect(policyForPage(policy, html)).toBe(
      [
        "default-src 'self'",
        ` script-src 'self' '${cspHash(boot)}' https://mc.yandex.ru`,
        ` style-src 'self' '${cspHash(style)}'`,
        " frame-ancestors 'none'",
      ].join(';'),
    );
  });

  it('keeps a hash the page uses twice or in a script with attributes', () => {
    const html = `<script type="module">${boot}</script><p>…</p><script>${boot}</script>`;
    expect(policyForPage(policy, html)).toContain(cspHash(boot));
    expect(policyForPage(policy, html)).not.toContain(cspHash(style));
  });

  it('a script loaded from a file allows no inline text that happens to sit in its element', () => {
    expect(policyForPage(policy, `<script src="/a.js">${boot}</script>`)).not.toContain(cspHash(boot));
  });

  it('allows nothing for a JSON block, which the browser never runs, though its text is a listed script', () => {
    expect(policyForPage(policy, `<script type="application/ld+json">${boot}</script>`)).not.toContain(cspHash(boot));
    expect(policyForPage(policy, `<script type="application/json" id="m">${boot}</script>`)).not.toContain(cspHash(boot));
  });
});

it('remembers a hash without changing it', () => {
  const style = `.a{content:"é"}`.repeat(2000);
  for (const text of ['a()', 'a()', 'b()', 'é()', style, style]) expect(cspHashOnce(text)).toBe(cspHash(text));
  const bytes = Buffer.from('é()', 'utf8').toString('latin1');
  expect(cspHashOnce(bytes, 'latin1')).toBe(cspHash('é()'));
  expect(cspHashOnce('é()')).toBe(cspHash('é()'));
});
