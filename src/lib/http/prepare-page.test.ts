import { expect, it } from 'vitest';
import { cspHash } from './csp.ts';
import { compileSheet } from './first-paint-css-compile.ts';
import { preparePage, preparedPolicy } from './prepare-page.ts';

it('a page gets its runtime as a file, the frame strings out of the props, its rules inline, and a policy naming what it carries', () => {
  const html =
    '<html><head><link rel="stylesheet" href="/_astro/a.css"></head><body class="a">' +
    '<script>runtime()</script><astro-island component-url="/_astro/Header.X.js" props="{&quot;labels&quot;:[0,1],&quot;tags&quot;:[0,2]}"></astro-island></body></html>';
  const page = preparePage(html, {
    sheets: new Map([['/_astro/a.css', compileSheet('.a{color:red}.b{color:blue}')]]),
    scripts: { texts: ['runtime()'], path: '/_astro/shared-0123456789.js' },
  });
  expect(page.html).toContain('<style>.a{color:red}</style>');
  expect(page.html).toContain('<script type="module" fetchpriority="low" src="/_astro/shared-0123456789.js"></script>');
  expect(page.html).toContain('props="{&quot;tags&quot;:[0,2]}"');
  expect(page.styleHashes).toEqual([cspHash('.a{color:red}')]);
  const policy = preparedPolicy(`script-src 'self' '${cspHash('runtime()')}'; style-src 'self'`, page);
  expect(policy).not.toContain(cspHash('runtime()'));
  expect(policy).toContain(`'${cspHash('.a{color:red}')}'`);
});

it('a page with nothing to change passes as it was', () => {
  const html = '<html><head></head><body><p>x</p></body></html>';
  expect(preparePage(html, { sheets: new Map() })).toEqual({ html, styleHashes: [] });
});
