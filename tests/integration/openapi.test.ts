// The published contract: /api/openapi.json lists every API route file with the methods it exports,
// and the validator the other tests run every answer through really refuses a wrong answer.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, baseUrl } from '../support/api.ts';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { apiPathOf } from '../../src/lib/http/openapi.ts';
import { loadContract } from '../support/contract.ts';
import { rateLimitedOperations } from '../support/rate-limited.ts';

const API_DIR = 'src/pages/api';

function routeFiles(dir = API_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document with the envelope and the named answer shapes as components', async () => {
    const { document } = await loadContract(baseUrl());
    expect(document).toMatchObject({ openapi: '3.1.0', servers: [{ url: baseUrl() }] });
    const schemas = (document['components'] as { schemas: Record<string, unknown> }).schemas;
    for (const name of ['Failure', 'Crumb', 'MetaData', 'ProductCard', 'MegaCategory', 'Suggestions', 'Footer', 'InfoPage', 'BlogPost']) {
      expect(schemas, name).toHaveProperty(name);
    }
  });

  it('lists every API route file with exactly the methods it exports', async () => {
    const { document } = await loadContract(baseUrl());
    const paths = document['paths'] as Record<string, Record<string, unknown>>;
    const expected: Record<string, string[]> = {};
    for (const file of routeFiles()) {
      const rel = relative(API_DIR, file).replace(/\.ts$/, '');
      // The catch-all answers unknown paths; the document describes itself.
      if (rel.includes('[...') || rel === 'openapi.json' || rel.split('/').pop()?.startsWith('_')) continue;
      const path = apiPathOf(`./${rel}.ts`);
      const methods = [...readFileSync(file, 'utf8').matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => (m[1] as string).toLowerCase());
      expected[path as string] = methods.sort();
    }
    expect(Object.keys(expected).length).toBeGreaterThan(10);
    expect(Object.fromEntries(Object.entries(paths).map(([path, ops]) => [path, Object.keys(ops).sort()]))).toEqual(expected);
  });

  it('describes each operation’s parameters from its zod schema', async () => {
    const { document } = await loadContract(baseUrl());
    const listing = (document['paths'] as Record<string, Record<string, { parameters: { name: string; in: string }[] }>>)['/api/v1/ecommerce-core/products']?.[
      'get'
    ];
    const names = listing?.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['sort', 'page', 'per_page', 'brands', 'attr', 'price_min', 'category', 'brand', 'search']));
    const product = (document['paths'] as Record<string, Record<string, { parameters: { name: string; in: string; required: boolean }[] }>>)[
      '/api/v1/ecommerce-core/product/{id}'
    ]?.['get'];
    expect(product?.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
  });

  it('refuses answers that do not match it', async () => {
    const contract = await loadContract(baseUrl());
    expect(contract.check('GET', '/api/v1/ecommerce-core/mega-categories', 200, { success: true, data: [] })).toEqual([]);
    expect(contract.check('GET', '/api/v1/ecommerce-core/mega-categories', 200, { success: true, data: [{ id: 'x' }] })).not.toEqual([]);
    expect(contract.check('GET', '/api/v1/ecommerce-core/product/5', 404, { success: false, message: 'Не найдено' })).toEqual([]);
    expect(contract.check('GET', '/api/v1/ecommerce-core/product/5', 404, { success: false })).not.toEqual([]);
    expect(contract.check('GET', '/api/nowhere', 200, {})).not.toEqual([]);
  });

  it('declares who may call each operation: the bearer scheme on 🔒 calls, none on public ones, as the handlers read it', async () => {
    const { document } = await loadContract(baseUrl());
    const schemes = (document['components'] as { securitySchemes: Record<string, { type: string; scheme?: string }> }).securitySchemes;
    expect(schemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    const paths = document['paths'] as Record<string, Record<string, { security: Record<string, string[]>[]; responses: Record<string, unknown> }>>;
    for (const file of routeFiles()) {
      const rel = relative(API_DIR, file).replace(/\.ts$/, '');
      if (rel.includes('[...') || rel === 'openapi.json' || rel.split('/').pop()?.startsWith('_')) continue;
      const path = apiPathOf(`./${rel}.ts`) as string;
      const source = readFileSync(file, 'utf8');
      // What the handler reads decides what the document must say.
      const expected = /requireCustomer\(|bearerToken\(/.test(source)
        ? [{ bearer: [] }]
        : /optionalCustomer\(/.test(source)
          ? [{}, { bearer: [] }]
          : /operatorAllowed|x-operator-token/.test(source)
            ? [{ operatorKey: [] }]
            : [];
      for (const [method, operation] of Object.entries(paths[path] ?? {})) {
        expect(operation.security, `${method} ${path}`).toEqual(expected);
        if (expected.some((s) => 'bearer' in s)) expect(operation.responses, `${method} ${path}`).toHaveProperty('401');
      }
    }
  });

  it('lists each failure status by itself: no 4XX range for an answer to hide in', async () => {
    const { document } = await loadContract(baseUrl());
    const paths = document['paths'] as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses), `${method} ${path}`).not.toContain('4XX');
        expect(operation.responses, `${method} ${path}`).toHaveProperty('400');
      }
    }
    const product = paths['/api/v1/ecommerce-core/product/{id}']!['get']!.responses;
    expect(Object.keys(product)).toEqual(expect.arrayContaining(['200', '404', '422']));
    const contract = await loadContract(baseUrl());
    // An answer with a status the operation does not list is refused.
    expect(contract.check('GET', '/api/v1/ecommerce-core/mega-categories', 409, { success: false, message: 'x' })).not.toEqual([]);
  });

  it('lists 429 on exactly the operations whose handlers are rate-limited, in the failure envelope', { timeout: 180_000 }, async () => {
    const { document } = await loadContract(baseUrl());
    const paths = document['paths'] as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
    const limited = rateLimitedOperations();
    // The analysis finds the limits in services as well as in route files (a reset link's is in auth.server.ts).
    expect(limited).toEqual(
      expect.arrayContaining([
        'GET /api/v1/ecommerce-core/customer/customer-email-reset-link',
        'POST /api/v1/ecommerce-core/auth/customer-login',
        'POST /api/v1/ecommerce-core/redemption-request/',
      ]),
    );
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => '429' in operation.responses)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(limited);
    for (const operation of limited) {
      const [method = '', path = ''] = operation.split(' ');
      const tooMany = paths[path]?.[method.toLowerCase()]?.responses['429'];
      expect(tooMany?.content?.['application/json']?.schema, operation).toEqual({ $ref: '#/components/schemas/Failure' });
    }
  });

  it('documents the 429 a customer meets asking for a fourth reset link in an hour', async () => {
    const email = `reset.${randomBytes(5).toString('hex')}@example.ru`;
    const registered = await api<{ access_token: string }>('/api/v1/ecommerce-core/auth/customer-registration', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, phone: '+7 (999) 555-12-34', password: 'тихий вечер у реки' }),
    });
    expect(registered.status).toBe(201);
    const bearer = { headers: { authorization: `Bearer ${registered.body.data?.access_token ?? ''}` } };
    // api() validates every answer against the document: an undocumented 429 fails the call itself.
    for (let i = 0; i < 3; i++) expect((await api('/api/v1/ecommerce-core/customer/customer-email-reset-link', bearer)).status).toBe(200);
    const refused = await api('/api/v1/ecommerce-core/customer/customer-email-reset-link', bearer);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body).toEqual({ success: false, message: 'Слишком много запросов. Попробуйте позже' });
    const contract = await loadContract(baseUrl());
    expect(contract.check('GET', '/api/v1/ecommerce-core/customer/customer-email-reset-link', 429, refused.body)).toEqual([]);
    expect(contract.check('GET', '/api/v1/ecommerce-core/customer/customer-email-reset-link', 429, { success: false })).not.toEqual([]);
  });

  it('passes Redocly’s recommended rules, the trailing slashes the spec writes aside', async () => {
    const res = await fetch(new URL('/api/openapi.json', baseUrl()));
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: await res.text(), absoluteRef: 'openapi.json', config });
    // spec §7 names the buyout call with its trailing slash: POST /api/v1/ecommerce-core/redemption-request/.
    const specSlashes = (p: (typeof problems)[number]) =>
      p.ruleId === 'no-path-trailing-slash' && p.location.some((l) => l.pointer?.includes('redemption-request~1'));
    const left = problems.filter((p) => !specSlashes(p)).map((p) => `${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
    expect(left).toEqual([]);
  });
});
