// The published contract: /api/openapi.json lists every API route file with the methods it exports,
// and the validator the other tests run every answer through really refuses a wrong answer.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl } from '../support/api.ts';
import { loadContract } from '../support/contract.ts';

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
    for (const name of [
      'Failure',
      'Crumb',
      'MetaData',
      'ProductCard',
      'Listing',
      'ProductDetail',
      'MegaCategory',
      'Suggestions',
      'Footer',
      'InfoPage',
      'BlogPost',
    ]) {
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
      const path = `/api/${rel.replace(/(^|\/)index$/, '$1').replace(/\[(\w+)\]/g, '{$1}')}`;
      const methods = [...readFileSync(file, 'utf8').matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => (m[1] as string).toLowerCase());
      expected[path] = methods.sort();
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
});
