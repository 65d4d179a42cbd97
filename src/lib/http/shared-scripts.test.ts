import { describe, expect, it } from 'vitest';
import { externalizeScripts } from './shared-scripts.ts';
import { sharedScripts } from './shared-scripts-files.ts';

const scripts = { texts: ['window.a=1', 'window.b=2'], path: '/_astro/shared-0123456789.js' };

describe('externalizeScripts', () => {
  it('takes every inline copy out and loads the one file where the first stood', () => {
    const html = '<head></head><body><p>x</p><script>window.b=2</script><i></i><script>window.a=1</script></body>';
    expect(externalizeScripts(html, scripts)).toBe(
      '<head></head><body><p>x</p><script type="module" fetchpriority="low" src="/_astro/shared-0123456789.js"></script><i></i></body>',
    );
  });

  it("takes out the inline styles the shop's stylesheet carries", () => {
    const html = '<body><style>x-island{display:contents}</style><p>x</p></body>';
    expect(externalizeScripts(html, { ...scripts, styles: ['x-island{display:contents}'] })).toBe('<body><p>x</p></body>');
  });

  it('leaves a page without them, and other inline scripts, as they were', () => {
    const html = '<body><script>window.c=3</script><script type="module">window.a=1</script></body>';
    expect(externalizeScripts(html, scripts)).toBe(html);
    expect(externalizeScripts(html, undefined)).toBe(html);
  });

  it('asks for every module script at low priority, in the head and the body, with or without the shared file', () => {
    const html =
      '<head><script type="module" src="/_astro/page.js"></script></head><body><script>window.a=1</script><script type="module" src="/_astro/x.js"></script></body>';
    const lowered = '<script type="module" fetchpriority="low" src="';
    expect(externalizeScripts(html, scripts)).toBe(
      `<head>${lowered}/_astro/page.js"></script></head><body>${lowered}/_astro/shared-0123456789.js"></script>${lowered}/_astro/x.js"></script></body>`,
    );
    expect(externalizeScripts(html, undefined)).toBe(html.replaceAll('<script type="module" src="', lowered));
  });

  it("takes out of an island's tag what its runtime reads as the default or never reads", () => {
    const tag = (attributes: string) => `<body><astro-island ${attributes}><p>x</p></astro-island></body>`;
    const astro =
      'uid="Z1tBzNL" prefix="r11" component-url="/_astro/Toaster.X.js" component-export="default" renderer-url="/_astro/client.Y.js" props="{}" ssr client="eager" opts="{&quot;name&quot;:&quot;Toaster&quot;,&quot;value&quot;:true}" await-children';
    expect(externalizeScripts(tag(astro), scripts)).toBe(
      tag(
        'prefix="r11" component-url="/_astro/Toaster.X.js" renderer-url="/_astro/client.Y.js" ssr client="eager" opts="{&quot;value&quot;:true}" await-children',
      ),
    );
    // A named export, props and a directive's own value stay.
    const kept =
      'component-url="/_astro/A.js" component-export="Named" props="{&quot;a&quot;:[0,1]}" client="visible" opts="{&quot;value&quot;:{&quot;rootMargin&quot;:&quot;10px&quot;}}"';
    expect(externalizeScripts(tag(kept), undefined)).toBe(tag(kept));
  });

  it('knows the texts Astro writes: its island runtime and the built-in directives, in a file named by its content', () => {
    const { texts, path } = sharedScripts();
    expect(texts.some((text) => text.includes('astro-island'))).toBe(true);
    expect(texts.some((text) => text.includes('.idle='))).toBe(true);
    expect(path).toMatch(/^\/_astro\/shared-[0-9a-f]{10}\.js$/);
    expect(sharedScripts().path).toBe(path);
  });
});
