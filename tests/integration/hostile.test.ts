// What an attacker or a broken client can send, thrown at every endpoint and page: oversized and chunked
// bodies, NUL bytes and invalid UTF-8, other content types, methods a path does not have, undecodable
// paths, ids written other ways. Every answer is a 4xx with the envelope on /api (the shop's page
// elsewhere) and the security headers — never a 500.
import { describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { baseUrl } from '../support/api.ts';
import { loadContract } from '../support/contract.ts';
import { rawRequest, type RawOptions } from '../support/http.ts';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP/1.1 request in Russian (fetch would refuse to send some of these). */
async function raw(method: string, path: string, options: RawOptions = {}): Promise<Answer> {
  const answer = await rawRequest(method, path, { ...options, headers: { 'accept-language': 'ru', ...options.headers } });
  return { status: answer.status, headers: answer.headers, body: answer.text };
}

/** A request line Node's client would not send: written straight to a socket. */
async function rawLine(line: string): Promise<Answer> {
  const { connect } = await import('node:net');
  const url = new URL(baseUrl());
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(`${line}\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    const parts: Buffer[] = [];
    socket.on('data', (c: Buffer) => parts.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [status = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(status.split(' ')[1]), headers, body });
    });
  });
}

function expectRefusal(answer: Answer, status: number, path: string): void {
  expect(answer.status, answer.body.slice(0, 200)).toBe(status);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  if (path.startsWith('/api/')) {
    expect(answer.headers['content-type']).toContain('application/json');
    const body = JSON.parse(answer.body) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/[а-яё]/i);
  } else {
    expect(answer.headers['content-type']).toContain('text/html; charset=utf-8');
  }
}

const fx = () => shared().catalog;
const BODY_ENDPOINTS = [
  '/api/v1/ecommerce-core/redemption-request/',
  '/api/v1/ecommerce-core/newsletter/subscribe',
  '/api/v1/ecommerce-core/auth/customer-login',
  '/api/v1/ecommerce-core/auth/customer-registration',
  '/api/v1/ecommerce-core/auth/customer-reset-password',
  '/api/v1/ecommerce-core/customer/update-customer-basic-info',
  '/api/v1/ecommerce-core/customer/addresses',
  '/api/v1/ecommerce-core/customer/cart/store-cart-item',
  '/api/v1/ecommerce-core/guest/cart/validate-cart-item',
  '/api/v1/ecommerce-core/cart/validate-cart-items',
  '/api/v1/ecommerce-core/customer/store-product-to-wishlist',
  '/api/v1/ecommerce-core/checkout/place-order',
  '/api/v1/ecommerce-core/checkout/summary',
  '/api/v1/ecommerce-core/payments/yookassa/notification',
  `/api/v1/ecommerce-core/payments/test/tp_${'0'.repeat(24)}`,
];
const json = { 'content-type': 'application/json' };

describe('bodies', () => {
  it.each(BODY_ENDPOINTS)('%s refuses a declared body over 1 MB with 413', async (path) => {
    expectRefusal(await raw('POST', path, { headers: { ...json, 'content-length': String(2_000_000) }, body: 'x'.repeat(10) }), 413, path);
  });

  it.each(BODY_ENDPOINTS)('%s refuses a chunked body over 1 MB with 413', async (path) => {
    const chunk = Buffer.alloc(256 * 1024, 'a');
    expectRefusal(await raw('POST', path, { headers: { ...json, 'transfer-encoding': 'chunked' }, chunks: Array.from({ length: 9 }, () => chunk) }), 413, path);
  });

  it.each(BODY_ENDPOINTS)('%s refuses a chunked form over 1 MB with 413', async (path) => {
    const chunk = Buffer.from(`a=${'b'.repeat(256 * 1024)}&`);
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' };
    expectRefusal(await raw('POST', path, { headers, chunks: Array.from({ length: 9 }, () => chunk) }), 413, path);
  });

  it.each([
    ['a NUL in a field', '{"name":"Ан\\u0000на","phone":"+7 999 123 45 67","agreementPersonal":true,"agreementPromo":true}', 'name'],
    ['a NUL in a key', '{"na\\u0000me":"Анна","phone":"+7 999 123 45 67","agreementPersonal":true,"agreementPromo":true}', '_key'],
    [
      'a control character in a nested field',
      '{"name":"Анна","phone":"+7 999 123 45 67","images":[{"url":"https://x.ru/\\u0007"}],"agreementPersonal":true,"agreementPromo":true}',
      'images.0.url',
    ],
  ])('the buyout form refuses %s with 422 and names the field', async (_, body, field) => {
    const path = BODY_ENDPOINTS[0] as string;
    const answer = await raw('POST', path, { headers: json, body });
    expectRefusal(answer, 422, path);
    expect(Object.keys((JSON.parse(answer.body) as { errors: Record<string, string[]> }).errors)).toContain(field);
  });

  it.each(BODY_ENDPOINTS)('%s refuses a body nested 5,000 levels deep with 400, not a stack overflow', async (path) => {
    const answer = await raw('POST', path, { headers: json, body: `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}` });
    expectRefusal(answer, 400, path);
    expect((JSON.parse(answer.body) as { message: string }).message).toBe('Слишком глубокая вложенность данных в запросе');
  });

  it.each(BODY_ENDPOINTS)('%s refuses bytes that are not UTF-8 with 422', async (path) => {
    expectRefusal(await raw('POST', path, { headers: json, body: Buffer.from([0x7b, 0x22, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }), 422, path);
  });

  it.each([
    ['text/plain', '{"email":"a@b.ru"}', 415],
    ['application/xml', '<email>a@b.ru</email>', 415],
    ['application/json', '{"email":', 400],
    ['application/json', '[]', 422],
    ['application/json', 'null', 422],
    ['application/json', '"a@b.ru"', 422],
    ['application/json', '{"email":{"$ne":null}}', 422],
    ['application/json', '{"email":["a@b.ru","c@d.ru"]}', 422],
    ['multipart/form-data; boundary=x', '--x\r\nbroken', 400],
  ])('newsletter: a %s body %j answers %i', async (type, body, status) => {
    const path = BODY_ENDPOINTS[1] as string;
    expectRefusal(await raw('POST', path, { headers: { 'content-type': type }, body }), status, path);
  });

  it('an English client gets the refusal in English', async () => {
    const path = BODY_ENDPOINTS[1] as string;
    const answer = await raw('POST', path, { headers: { 'content-type': 'text/plain', 'accept-language': 'en' }, body: 'x' });
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, message: 'The request body must be JSON or a form' });
  });
});

describe('methods', () => {
  it('every API path answers a method it lacks with 405 and the methods it has', async () => {
    const { document } = await loadContract(baseUrl());
    const paths = document['paths'] as Record<string, Record<string, unknown>>;
    for (const [template, ops] of Object.entries(paths)) {
      const path = template.replace(/\{\w+\}/g, '1');
      const has = Object.keys(ops).map((m) => m.toUpperCase());
      for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => !has.includes(m))) {
        const answer = await raw(method, path, { headers: json, body: method === 'GET' || method === 'OPTIONS' ? undefined : '{}' });
        expect(answer.status, `${method} ${path}: ${answer.body}`).toBe(405);
        expectRefusal(answer, 405, path);
        const allow = String(answer.headers['allow']).split(', ');
        expect(allow, `${method} ${path}`).toEqual(expect.arrayContaining(has));
      }
    }
  });

  it.each(['/', '/c/1/x', '/brands', '/i/12/razmery', '/product/search/abc', '/robots.txt', '/sitemap.xml', '/sitemaps/pages.xml', '/feeds/yandex.yml'])(
    'the page %s answers only GET and HEAD: POST is a 405 page',
    async (path) => {
      const answer = await raw('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
      expectRefusal(answer, 405, path);
      expect(answer.headers['allow']).toBe('GET, HEAD');
    },
  );

  it.each([
    ['TRACE', '/'],
    ['TRACE', '/api/health'],
  ])('%s %s is refused with 405', async (method, path) => {
    expectRefusal(await raw(method, path), 405, path);
  });

  it('CONNECT is refused with 405, not a tunnel', async () => {
    expectRefusal(await rawLine('CONNECT /api/health HTTP/1.1'), 405, '/api/health');
  });

  it.each([
    ['FOO /api/health HTTP/1.1', 405, '/api/health'],
    ['FOO / HTTP/1.1', 405, '/'],
    ['GET /api/health HTTP/9.9', 400, '/api/health'],
    ['GET  HTTP/1.1', 400, '/'],
  ])('a request line Node cannot parse (%j) still gets a readable %i', async (line, status, path) => {
    expectRefusal(await rawLine(line), status, path);
  });

  it('HEAD of a page answers like GET without a body', async () => {
    const answer = await raw('HEAD', '/brands');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
  });
});

describe('paths and ids', () => {
  it.each([
    '/c/1/%zz',
    '/p/%E0%A4%A',
    '/product/search/%',
    '/api/v1/ecommerce-core/product/%zz',
    '/brands?x=%ff',
    '/sitemap.xml?x=%ff',
    '/robots.txt?q=100%',
    '/i/12/razmery?x=%E0%A4%A',
    '/api/v1/ecommerce-core/products?sort=%ff',
  ])('%s does not decode: 400 with the headers', async (path) => {
    expectRefusal(await raw('GET', path), 400, path);
  });

  it.each(['0x10', '1e1', '+16', '16.0', '016', ' 16', '16 ', '-16', '1,6', '0', '2147483648', '99999999999'])(
    'product id %j is not an id: 404',
    async (id) => {
      const path = `/api/v1/ecommerce-core/product/${encodeURIComponent(id)}`;
      expectRefusal(await raw('GET', path), 404, path);
    },
  );

  it('the canonical id still answers', async () => {
    expect((await raw('GET', `/api/v1/ecommerce-core/product/${fx().scarce.id}`)).status).toBe(200);
  });

  it.each(['category=0x10', 'brand=1e1', 'brands=%2B16', 'categories=16.0', 'color=016'])('listing filter %s is a 422', async (query) => {
    expectRefusal(await raw('GET', `/api/v1/ecommerce-core/products?${query}`), 422, '/api/');
  });

  it.each(['search=a%00b', 'attr=%00', 'attr=M%07'])('a control character in the query %s is a 422 on the API', async (query) => {
    expectRefusal(await raw('GET', `/api/v1/ecommerce-core/products?${query}`), 422, '/api/');
  });

  it('the search page shows the decoded text, and no NUL ever reaches a page', async () => {
    const slash = await raw('GET', '/product/search/gucci%2Fprada');
    expect(slash.body).toContain('«gucci/prada»');
    for (const path of ['/product/search/abc%00def', `/c/${fx().dresses.id}/test-platya?attr=%00&attr=M%00`]) {
      const answer = await raw('GET', path);
      expect(answer.status).toBe(200);
      expect(answer.body.includes('\u0000'), path).toBe(false);
    }
  });
});

describe('headers', () => {
  it.each(['/favicon.svg', '/img/p/dress-black-1-w360.webp', '/', '/api/health', '/404'])('%s carries the security headers and a request id', async (path) => {
    const answer = await raw('GET', path);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    // Framing is refused by the policy (X-Frame-Options would repeat it).
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps an idle connection 65 s, so a client never sends on one the shop has just closed', async () => {
    const http = await import('node:http');
    const agent = new http.Agent({ keepAlive: true });
    const keepAlive = await new Promise<string | undefined>((resolve, reject) =>
      http
        .get(new URL('/api/health', baseUrl()), { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers['keep-alive']?.toString()));
        })
        .on('error', reject),
    );
    agent.destroy();
    expect(keepAlive).toBe('timeout=65');
  });

  it('HTML says its charset', async () => {
    expect((await raw('GET', '/brands')).headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('a sane request id from a proxy is kept, a hostile one replaced', async () => {
    expect((await raw('GET', '/api/health', { headers: { 'x-request-id': 'lb-1234abcd' } })).headers['x-request-id']).toBe('lb-1234abcd');
    expect((await raw('GET', '/api/health', { headers: { 'x-request-id': '<script>' } })).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
