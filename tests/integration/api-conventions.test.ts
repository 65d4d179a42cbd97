// The API's shared conventions (DESIGN §3): envelope on every path, language, health, security headers.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { api, baseUrl } from '../support/api.ts';

describe('envelope for what no endpoint handles', () => {
  it.each(['/api/nope', '/api/v1/ecommerce-core/does-not-exist', '/api/v1/', '/api/theme/tlcommerce/v1/page'])(
    'unknown path %s is a 404 envelope, not HTML',
    async (path) => {
      const { status, body, headers } = await api(path);
      expect(status).toBe(404);
      expect(headers.get('content-type')).toContain('application/json');
      expect(body).toEqual({ success: false, message: 'Такого метода API нет' });
    },
  );

  it('a method an endpoint does not support answers in the envelope', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const { status, body } = await api('/api/widgets/v1/footer', { method, body: '{}', headers: { 'content-type': 'application/json' } });
      expect(status, method).toBeGreaterThanOrEqual(400);
      expect(status, method).toBeLessThan(500);
      expect(body.success).toBe(false);
    }
  });

  it('speaks English when the client prefers it', async () => {
    const { body } = await api('/api/nope', { headers: { 'accept-language': 'en-GB,en;q=0.9' } });
    expect(body.message).toBe('No such API method');
    const meta = await api('/api/v1/ecommerce-core/meta-data', { headers: { 'accept-language': 'en' } });
    expect(meta.body.message).toBe('Please check the highlighted fields');
  });
});

describe('GET /api/health', () => {
  it('checks the database', async () => {
    const { status, body } = await api<{ status: string; database: string }>('/api/health');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ status: 'ok', database: shared().databaseKind });
  });
});

describe('pages', () => {
  it('home renders with the meta title, seeded product cards and their images', async () => {
    const res = await fetch(new URL('/', baseUrl()));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Brandshop — оригинальная одежда, обувь и сумки премиальных брендов</title>');
    expect(html).toContain('Новинки');
    expect(html).toMatch(/href="\/p\/\d+\/[a-z0-9-]+"/);
    expect(html).toMatch(/<img[^>]+srcset="\/img\/p\/[^"]+ 360w, [^"]+ 720w"[^>]*width="720"[^>]*height="960"|<img[^>]+width="720"[^>]+height="960"/);
    const img = /src="(\/img\/p\/[^"]+\.webp)"/.exec(html)?.[1];
    expect(img).toBeTruthy();
    const image = await fetch(new URL(img as string, baseUrl()));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
  });

  it('injects no analytics counter when METRIKA_ID is not configured', async () => {
    const html = await (await fetch(new URL('/', baseUrl()))).text();
    expect(html).not.toContain('mc.yandex.ru');
    expect(html).not.toContain('dataLayer');
  });

  it('renders pages in Russian for an English browser, English only with the lang=en cookie', async () => {
    const ru = await fetch(new URL('/brands', baseUrl()), { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(await ru.text()).toContain('Бренды от A до Z');
    expect(ru.headers.get('cache-control')).toContain('public');
    const en = await fetch(new URL('/brands', baseUrl()), { headers: { cookie: 'lang=en' } });
    const html = await en.text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain('Brands from A to Z');
    expect(en.headers.get('cache-control')).toBe('private, no-store');
  });

  it("serves editors' pages (built files) in Russian to everyone (docs/decisions/010)", async () => {
    const en = await fetch(new URL('/i/4/contacts', baseUrl()), { headers: { cookie: 'lang=en' } });
    const html = await en.text();
    expect(html).toContain('<html lang="ru"');
    expect(html).toContain('Принимаем оплату картами');
  });

  it('sends the security headers', async () => {
    const res = await fetch(new URL('/', baseUrl()));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it.each(['/', '/c/3/platya', '/brands', '/i/4/contacts', '/blog'])(
    'runs %s under a CSP that lists every inline script and style by hash and allows nothing else inline',
    async (path) => {
      const res = await fetch(new URL(path, baseUrl()));
      const policy = res.headers.get('content-security-policy') ?? '';
      const html = await res.text();
      const directive = (name: string) => policy.split(';').find((d) => d.trim().startsWith(`${name} `)) ?? '';
      expect(policy).not.toContain('unsafe-inline');
      expect(directive('script-src')).toContain("'self'");
      expect(directive('object-src')).toContain("'none'");
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      // Executable inline scripts (not JSON data blocks, not files) and style blocks.
      const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/(?:ld\+)?json")[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
      const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
      expect(scripts.length).toBeGreaterThan(0);
      for (const text of scripts) expect(directive('script-src'), text.slice(0, 80)).toContain(hash(text));
      for (const text of styles) expect(directive('style-src'), text.slice(0, 80)).toContain(hash(text));
      // Style attributes would need 'unsafe-inline': the pages have none.
      expect(html).not.toMatch(/<[^>]+\sstyle="/);
    },
  );

  it('gives answers that are not pages a policy that allows nothing', async () => {
    for (const path of ['/api/health', '/favicon.svg']) {
      const res = await fetch(new URL(path, baseUrl()));
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'none'");
    }
    const api = await fetch(new URL('/api/health', baseUrl()));
    expect(api.headers.get('content-security-policy')).toBe("default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  });

  it('an unknown page redirects to /404, which answers 404 with the error page (spec §2)', async () => {
    const res = await fetch(new URL('/definitely/not/here', baseUrl()), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get('location') ?? '', baseUrl()).pathname).toBe('/404');
    const page = await fetch(new URL('/404', baseUrl()));
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('Страница не найдена');
  });
});
