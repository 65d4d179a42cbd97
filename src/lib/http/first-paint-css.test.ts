import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cspHash } from './csp.ts';
import { REST_CSS_BOOT, prepareFirstPaint, pruneSheet, usedIn, withStyleSources } from './first-paint-css.ts';
import { compileBuiltSheet, compileBuiltSheets, compileSheet, deferredCopy, requirements, writeDeferredSheets } from './first-paint-css-compile.ts';

const page = (body: string, head = '<link rel="stylesheet" href="/_astro/a.css">') =>
  `<!doctype html><html><head><title>t</title>${head}</head><body>${body}</body></html>`;
const inline = (html: string) => [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, css]) => css).join('');
const prune = (css: string, body: string) => pruneSheet(compileSheet(css), usedIn(page(body))).css;

describe('what a selector asks of the document', () => {
  it.each([
    ['.a .b>.c', ['a', 'b', 'c'], []],
    ['.md\\:grid-cols-3', ['md:grid-cols-3'], []],
    ['.w-1\\/2,.x', ['w-1/2', 'x'], []],
    ['.space-y-1\\.5>:not(:last-child)', ['space-y-1.5'], []],
    // What :not(), :is(), :where() and attribute selectors hold asks nothing that can be counted on.
    ['.a:not(.b)', ['a'], []],
    [':where(.a,.b) p', [], ['p']],
    ['[data-x=".y"] .z', ['z'], []],
    ['.\\31 0xl', ['10xl'], []],
    ['.group:hover .group-hover\\:underline', ['group', 'group-hover:underline'], []],
    ['abbr:where([title])', [], ['abbr']],
    ['ul>li+li', [], ['ul', 'li', 'li']],
    // A form control's parts need that kind of field (usedIn names them).
    ['::-webkit-datetime-edit', [], ['input:date']],
    ['::-webkit-inner-spin-button', [], ['input:number']],
  ])('%s needs classes %j and elements %j', (selector, classes, tags) => {
    expect(requirements(selector)).toEqual({ classes, tags });
  });
});

describe('a sheet pruned to what a page can use', () => {
  it('keeps the rules whose classes the page has, in order, under their at-rules', () => {
    const css = '.a{color:red}.b{color:blue}@media (width>=48rem){.a{color:green}.b{margin:0}}.c{padding:0}';
    expect(prune(css, '<p class="a c">x</p>')).toBe('.a{color:red}@media (width>=48rem){.a{color:green}}.c{padding:0}');
  });

  it('keeps only the selectors of a list that can match', () => {
    expect(prune('.a,.b{color:red}', '<p class="b">x</p>')).toBe('.b{color:red}');
  });

  it('drops element rules for elements the page lacks and keeps those for the ones it has', () => {
    expect(prune('code,kbd{font-family:mono}p{margin:0}*{box-sizing:border-box}', '<p>x</p>')).toBe('p{margin:0}*{box-sizing:border-box}');
  });

  it('reads classes through HTML escapes', () => {
    expect(prune('.\\[\\&\\>\\*\\]\\:p-2>*{padding:.5rem}', '<p class="[&amp;&gt;*]:p-2">x</p>')).toBe('.\\[\\&\\>\\*\\]\\:p-2>*{padding:.5rem}');
  });

  it('keeps only the custom properties something reads, through other properties, and their registrations', () => {
    const css =
      '@property --un-a{syntax:"*";inherits:false}@property --un-b{syntax:"*";inherits:false}' +
      ':root{--used:1px;--unused:2px;--chain:var(--used)}.a{margin:var(--chain);--un-a:0}.b{--un-b:var(--un-a)}';
    expect(prune(css, '<p class="a">x</p>')).toBe(':root{--used:1px;--chain:var(--used)}.a{margin:var(--chain)}');
  });

  it('keeps what the page itself reads in a style attribute', () => {
    expect(prune(':root{--accent:red;--other:blue}', '<p style="color:var(--accent)">x</p>')).toBe(':root{--accent:red}');
  });

  it('keeps @font-face and @keyframes whole', () => {
    const css = '@font-face{font-family:X;src:url(/x.woff2)}@keyframes spin{to{transform:rotate(1turn)}}.gone{color:red}';
    expect(prune(css, '<p>x</p>')).toBe('@font-face{font-family:X;src:url(/x.woff2)}@keyframes spin{to{transform:rotate(1turn)}}');
  });

  it('leaves hover and pressed states, and transitions, to the whole sheet', () => {
    expect(prune('.a{color:red;transition-property:color;transition-duration:.2s}.a:hover,.b{color:blue}.a:active{color:green}', '<p class="a b">x</p>')).toBe(
      '.a{color:red}.b{color:blue}',
    );
    expect(pruneSheet(compileSheet('.a{color:red}.a:hover{color:blue}'), usedIn(page('<p class="a">x</p>'))).complete).toBe(false);
  });

  it('keeps the parts of a date, number or search field only where the page has such a field', () => {
    const css =
      '::-webkit-datetime-edit{padding-block:0}::-webkit-inner-spin-button,::-webkit-outer-spin-button{height:auto}::-webkit-search-decoration{-webkit-appearance:none}';
    expect(prune(css, '<input name="q">')).toBe('');
    expect(prune(css, '<input type="date" name="d"><input type=search>')).toBe(
      '::-webkit-datetime-edit{padding-block:0}::-webkit-search-decoration{-webkit-appearance:none}',
    );
    expect(prune(css, '<input name="n" type="NUMBER">')).toBe('::-webkit-inner-spin-button,::-webkit-outer-spin-button{height:auto}');
    expect(prune(css, '<input type="datetime-local">')).toBe('::-webkit-datetime-edit{padding-block:0}');
  });

  it("leaves Firefox's focus ring and invalid mark to the whole sheet", () => {
    expect(prune(':-moz-focusring{outline:auto}:-moz-ui-invalid{box-shadow:none}p{margin:0}', '<p>x</p>')).toBe('p{margin:0}');
  });

  it('says whether the page used the sheet whole', () => {
    const sheet = compileSheet('.a{color:red}');
    expect(pruneSheet(sheet, usedIn(page('<p class="a">x</p>'))).complete).toBe(true);
    expect(pruneSheet(sheet, usedIn(page('<p>x</p>'))).complete).toBe(false);
  });
});

describe('a page prepared for its first paint', () => {
  const sheets = new Map([['/_astro/a.css', compileSheet('.a{color:red}.b{color:blue}')]]);

  it('carries the rules it uses inline and the whole sheet deferred in the link’s place, with script off too', () => {
    const prepared = prepareFirstPaint(page('<p class="a">x</p>'), sheets);
    expect(prepared?.html).toContain(
      '<script>' +
        REST_CSS_BOOT +
        '</script><style>.a{color:red}</style><link rel="preload" as="style" fetchpriority="low" href="/_astro/a.css" data-rest><noscript><link rel="stylesheet" href="/_astro/a.css"></noscript></head>',
    );
    expect(prepared?.styleHashes).toEqual([cspHash('.a{color:red}')]);
  });

  it('puts every sheet’s rules in one style element where the first sheet was, with one hash, the whole sheets after it in order', () => {
    const two = new Map([...sheets, ['/_astro/b.css', compileSheet('.c{margin:0}.d{margin:1px}')]]);
    const prepared = prepareFirstPaint(
      page('<p class="a c">x</p>', '<link rel="stylesheet" href="/_astro/a.css"><link rel="stylesheet" href="/_astro/b.css">'),
      two,
    );
    const html = prepared?.html ?? '';
    expect(html.match(/<style>/g)).toHaveLength(1);
    expect(inline(html)).toBe('.a{color:red}.c{margin:0}');
    expect(prepared?.styleHashes).toEqual([cspHash('.a{color:red}.c{margin:0}')]);
    expect(html.indexOf('<style>')).toBeLessThan(html.indexOf('href="/_astro/a.css" data-rest'));
    expect(html.indexOf('href="/_astro/a.css" data-rest')).toBeLessThan(html.indexOf('href="/_astro/b.css" data-rest'));
  });

  it('does not fetch again a sheet the page uses whole', () => {
    const prepared = prepareFirstPaint(page('<p class="a b">x</p>'), sheets);
    expect(prepared?.html).not.toContain('/_astro/a.css');
    expect(inline(prepared?.html ?? '')).toBe('.a{color:red}.b{color:blue}');
  });

  it('defers the copy without the font faces and keyframes it always carries inline, and links the whole sheet without script', () => {
    const css = '@font-face{font-family:F;src:local(Arial)}.a{color:red}@keyframes k{to{opacity:0}}.b{animation:k 1s}';
    const copy = deferredCopy('a.x1.css', css);
    const sheet = compileBuiltSheet('a.x1.css', css);
    const html =
      prepareFirstPaint(page('<p class="a">x</p>', '<link rel="stylesheet" href="/_astro/a.x1.css">'), new Map([['/_astro/a.x1.css', sheet]]))?.html ?? '';
    expect(inline(html)).toBe('@font-face{font-family:F;src:local(Arial)}.a{color:red}@keyframes k{to{opacity:0}}');
    expect(html).toContain(`<link rel="preload" as="style" fetchpriority="low" href="/_astro/${copy?.name}" data-rest>`);
    expect(html).toContain('<noscript><link rel="stylesheet" href="/_astro/a.x1.css"></noscript>');
  });

  it('leaves sheets it does not know, and a page without a head', () => {
    expect(prepareFirstPaint(page('<p class="a">x</p>', '<link rel="stylesheet" href="/other.css">'), sheets)).toBeUndefined();
    expect(prepareFirstPaint('<p class="a">x</p>', sheets)).toBeUndefined();
  });

  it('never lets a stylesheet end the style element early', () => {
    // Spelt out of pieces so that no tool on the way rewrites the closing tag in the literal.
    const close = `${String.fromCharCode(60)}/style>`;
    const hostile = new Map([['/_astro/a.css', compileSheet(`.a{content:"${close}<script>alert(1)</script>"}`)]]);
    const html = prepareFirstPaint(page('<p class="a">x</p>'), hostile)?.html ?? page('<p class="a">x</p>');
    // Escaped in the CSS, or the link left as it was: either way the only closing tag is the element's own.
    expect(html.split(close)).toHaveLength(html.includes('<style>') ? 2 : 1);
    expect(html.slice(html.indexOf(close) + close.length)).not.toContain('alert');
  });

  it('adds the inline styles to the policy', () => {
    expect(withStyleSources("default-src 'self'; style-src 'self' 'sha256-a='; img-src 'self'", ['sha256-b='])).toBe(
      "default-src 'self'; style-src 'self' 'sha256-a=' 'sha256-b='; img-src 'self'",
    );
    expect(withStyleSources("default-src 'self'", ['sha256-b='])).toBe("default-src 'self'; style-src 'self' 'sha256-b='");
  });
});

describe('the deferred copy of a built sheet', () => {
  it('leaves out the font faces and keyframes (a second identical @font-face relays out every line) and keeps the rules in order', () => {
    const copy = deferredCopy(
      'page.AB12.css',
      '@font-face{font-family:F;src:local(Arial)}.a{color:red}@-webkit-keyframes k{to{opacity:0}}@media (width>=48rem){.b{color:blue}}@keyframes k{to{opacity:0}}@property --x{syntax:"*";inherits:false}',
    );
    expect(copy?.css).toBe('.a{color:red}@media (width>=48rem){.b{color:blue}}@property --x{syntax:"*";inherits:false}');
    expect(copy?.name).toMatch(/^page\.AB12\.rest-[\w-]{8}\.css$/);
  });

  it('is named by its content, and not made when there is nothing to leave out', () => {
    const one = deferredCopy('a.css', '@font-face{font-family:F;src:local(A)}.a{color:red}');
    const other = deferredCopy('a.css', '@font-face{font-family:F;src:local(A)}.a{color:blue}');
    expect(one?.name).not.toBe(other?.name);
    expect(deferredCopy('a.css', '@font-face{font-family:F;src:local(B)}.a{color:red}')?.name).toBe(one?.name);
    expect(deferredCopy('a.css', '.a{color:red}')).toBeUndefined();
  });

  it('is written beside the built sheet, and not read back as a sheet of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheets-'));
    mkdirSync(join(dir, '_astro'));
    writeFileSync(join(dir, '_astro', 'g.A1.css'), '@font-face{font-family:F;src:local(A)}.a{color:red}');
    writeFileSync(join(dir, '_astro', 'h.B2.css'), '.b{color:blue}');
    const sheets = compileBuiltSheets(dir);
    expect(writeDeferredSheets(dir, sheets)).toBe(1);
    const href = sheets.get('/_astro/g.A1.css')?.deferred?.href ?? '';
    expect(readFileSync(join(dir, href), 'utf8')).toBe('.a{color:red}');
    expect(sheets.get('/_astro/h.B2.css')?.deferred).toBeUndefined();
    expect([...compileBuiltSheets(dir).keys()].sort()).toEqual(['/_astro/g.A1.css', '/_astro/h.B2.css']);
    rmSync(dir, { recursive: true });
  });
});
