// The API's shared conventions (DESIGN §3): envelope on every path, language, health, security headers.
import { describe, expect, inject, it } from 'vitest';
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
    expect(body.data).toMatchObject({ status: 'ok', database: inject('databaseKind') });
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
    const ru = await fetch(new URL('/i/4/contacts', baseUrl()), { headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(await ru.text()).toContain('Принимаем оплату картами');
    expect(ru.headers.get('cache-control')).toContain('public');
    const en = await fetch(new URL('/i/4/contacts', baseUrl()), { headers: { cookie: 'lang=en' } });
    const html = await en.text();
    expect(html).toContain('<html lang="en"');
    expect(html).toContain('We accept cards');
    expect(en.headers.get('cache-control')).toBe('private, no-store');
  });

  it('sends the security headers', async () => {
    const res = await fetch(new URL('/', baseUrl()));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
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
