import { describe, expect, it } from 'vitest';
import { apiMethodRefusal, clientErrorResponse, methodTable, preflight } from './edge.ts';

describe('the front’s refusals', () => {
  it('passes what a route can answer to Astro', () => {
    expect(preflight('GET', '/c/3/platya?sort=new')).toBeUndefined();
    expect(preflight('HEAD', '/')).toBeUndefined();
    expect(preflight('POST', '/api/v1/ecommerce-core/newsletter/subscribe')).toBeUndefined();
  });

  it('refuses TRACE everywhere, writes to pages, and paths that do not decode', () => {
    expect(preflight('TRACE', '/api/health')).toMatchObject({ status: 405, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(preflight('POST', '/brands')).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD', 'content-type': 'text/html; charset=utf-8' } });
    // The managers' console posts its forms to its own pages; a page merely starting with "ops" does not.
    expect(preflight('POST', '/ops/login')).toBeUndefined();
    expect(preflight('POST', '/ops')).toBeUndefined();
    expect(preflight('POST', '/opskins')?.status).toBe(405);
    // The gift certificate's form posts to its page (docs/decisions/025); nothing beneath it does.
    expect(preflight('POST', '/gift-certificate')).toBeUndefined();
    expect(preflight('POST', '/gift-certificates')?.status).toBe(405);
    expect(preflight('PUT', '/gift-certificate')?.status).toBe(405);
    // A review's form posts to its order's review page (docs/decisions/026), with or without the order's hash.
    expect(preflight('POST', '/review/BS-12345678/abcDEF_-12')).toBeUndefined();
    expect(preflight('POST', '/review/BS-12345678')).toBeUndefined();
    expect(preflight('POST', '/review/BS-12345678/a/b')?.status).toBe(405);
    expect(preflight('POST', '/reviews')?.status).toBe(405);
    expect(preflight('PUT', '/ops/login')?.status).toBe(405);
    expect(preflight('GET', '/c/1/%zz')?.status).toBe(400);
    expect(preflight('GET', '/brands?x=%ff')?.status).toBe(400);
    expect(JSON.parse(preflight('GET', '/api/v1/ecommerce-core/products?sort=%E0%A4%A')?.body ?? '{}')).toEqual({
      success: false,
      message: 'Некорректный запрос',
    });
    expect(preflight('GET', '/product/search/%D0%BF%D0%BB%D0%B0%D1%82%D1%8C%D0%B5?page=2&q=100%25')).toBeUndefined();
    expect(JSON.parse(preflight('GET', '/api/%zz')?.body ?? '{}')).toEqual({ success: false, message: 'Некорректный запрос' });
  });

  it('answers in the envelope on the API and as a page elsewhere, always with the security headers', () => {
    const page = preflight('POST', '/') ?? { body: '', headers: {} as Record<string, string> };
    expect(page.body).toContain('<html lang="ru">');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('knows the API’s methods from its OpenAPI document', () => {
    const table = methodTable({ paths: { '/api/v1/x/{id}': { get: {} }, '/api/v1/y': { post: {} } } });
    expect(apiMethodRefusal(table, 'DELETE', '/api/v1/x/5?a=1')).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
    expect(apiMethodRefusal(table, 'HEAD', '/api/v1/x/5')).toBeUndefined();
    expect(apiMethodRefusal(table, 'GET', '/api/v1/y')).toMatchObject({ status: 405, headers: { allow: 'POST' } });
    expect(apiMethodRefusal(table, 'GET', '/api/v1/unknown')).toBeUndefined();
    expect(apiMethodRefusal(undefined, 'DELETE', '/api/v1/y')).toBeUndefined();
  });

  it('writes a readable answer for a request line Node could not parse', () => {
    const text = clientErrorResponse('HPE_INVALID_METHOD', Buffer.from('FOO /api/health HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(text).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    expect(text).toContain('connection: close');
    expect(text.endsWith('{"success":false,"message":"Метод не поддерживается"}')).toBe(true);
    expect(clientErrorResponse('HPE_INVALID_VERSION', undefined)).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  });
});
