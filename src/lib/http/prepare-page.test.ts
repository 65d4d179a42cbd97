import { expect, it } from 'vitest';
import { cspHash } from './csp.ts';
import { compileSheet } from './first-paint-css-compile.ts';
import { preparePage, preparedPolicy } from './prepare-page.ts';

it('a page gets its runtime as a file, its rules inline, and a policy naming what it carries', () => {
  const html =
    '<html><head><link rel="stylesheet" href="/_astro/a.css"></head><body class="a">' +
    '<script>runtime()</script><astro-island component-url="/_astro/Header.X.js" props="{&quot;labels&quot;:[0,1],&quot;tags&quot;:[0,2]}"></astro-island></body></html>';
  const page = preparePage(html, {
    sheets: new Map([['/_astro/a.css', compileSheet('.a{color:red}.b{color:blue}')]]),
    scripts: { texts: ['runtime()'], path: '/_astro/shared-0123456789.js' },
  });
  expect(page.html).toContain('<style>.a{color:red}</style>');
  expect(page.html).toContain('<script type="module" fetchpriority="low" src="/_astro/shared-0123456789.js"></script>');
  expect(page.styleHashes).toEqual([cspHash('.a{color:red}')]);
  const policy = preparedPolicy(`script-src 'self' '${cspHash('runtime()')}'; style-src 'self'`, page);
  expect(policy).not.toContain(cspHash('runtime()'));
  expect(policy).toContain(`'${cspHash('.a{color:red}')}'`);
});

it('a page with nothing to change passes as it was', () => {
  const html = '<html><head></head><body><p>x</p></body></html>';
  expect(preparePage(html, { sheets: new Map() })).toEqual({ html, styleHashes: [], encoding: 'utf8' });
});

it('a page prepared as its bytes comes out as the same bytes, with the same policy, as one prepared as text', () => {
  // Not ASCII in the text, a class, an inline script and the CSS inlined: each must survive the bytes form.
  const html =
    '<html><head><link rel="stylesheet" href="/_astro/a.css"><script>window.t="\u00ab\u0446\u0435\u043d\u0430\u00bb"</script></head>' +
    '<body class="a \u0446"><script>runtime()</script><p>\u041f\u043b\u0430\u0442\u044c\u0435 \u2014 12\u00a0990\u00a0\u20bd</p></body></html>';
  const assets = {
    sheets: new Map([['/_astro/a.css', compileSheet('.a{content:"\u2192"}.b{color:blue}')]]),
    scripts: { texts: ['runtime()'], path: '/_astro/shared-0123456789.js' },
  };
  const policy = `script-src 'self' '${cspHash('window.t="\u00ab\u0446\u0435\u043d\u0430\u00bb"')}' '${cspHash('runtime()')}'; style-src 'self'`;
  const asText = preparePage(html, assets);
  const asBytes = preparePage(Buffer.from(html, 'utf8').toString('latin1'), assets, 'latin1');
  expect(Buffer.from(asBytes.html, 'latin1').equals(Buffer.from(asText.html, 'utf8'))).toBe(true);
  expect(asText.html).toContain('<style>.a{content:"\u2192"}</style>');
  expect(preparedPolicy(policy, asBytes)).toBe(preparedPolicy(policy, asText));
  expect(preparedPolicy(policy, asText)).toContain(cspHash('window.t="\u00ab\u0446\u0435\u043d\u0430\u00bb"'));
});
