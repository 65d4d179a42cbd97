// The API contract, generated rather than kept by hand (OpenAPI 3.1): every endpoint made with
// `endpoint()` carries its params, query, body and answer schemas, and this builds the document from
// them with zod's own JSON Schema output. Served at /api/openapi.json; the integration tests validate
// every answer they receive against it.
import { z } from '../zod.ts';
import type { Endpoint } from './endpoint.ts';
// The envelope's own parts (Crumb, MetaData, Failure) register as components whichever endpoints exist.
import './envelope.schema.ts';

type JsonSchema = Record<string, unknown>;

export interface ApiRoute {
  /** The path as OpenAPI writes it: /api/v1/ecommerce-core/product/{id}. */
  path: string;
  method: string;
  endpoint: Endpoint;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Paths that spec §7 writes with a trailing slash: the document keeps the spec's spelling. */
export const SPEC_TRAILING_SLASH = ['/api/v1/ecommerce-core/redemption-request/'];

/**
 * An API route file (as import.meta.glob names it, relative to src/pages/api) to its OpenAPI path, or
 * null for the catch-all that answers unknown paths: './v1/x/[id].ts' → '/api/v1/x/{id}';
 * './v1/y/index.ts' → '/api/v1/y/'.
 */
export function apiPathOf(file: string): string | null {
  const rel = file.replace(/^\.\//, '').replace(/\.ts$/, '');
  if (/\[\.\.\./.test(rel)) return null;
  const path = `/api/${rel.replace(/(^|\/)index$/, '$1').replace(/\[(\w+)\]/g, '{$1}')}`;
  // A folder's index is written without the slash (both are served), except where the spec writes it.
  return SPEC_TRAILING_SLASH.includes(path) ? path : path.replace(/(.)\/$/, '$1');
}

/** The routes of the API folder's modules (each exports GET, POST, … made with endpoint()). */
export function apiRoutes(modules: Record<string, Record<string, unknown>>): ApiRoute[] {
  const routes: ApiRoute[] = [];
  for (const [file, mod] of Object.entries(modules)) {
    const path = apiPathOf(file);
    if (!path) continue;
    for (const method of METHODS) {
      const handler = mod[method];
      if (typeof handler === 'function' && 'spec' in handler) routes.push({ path, method, endpoint: handler as Endpoint });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

const COMPONENTS = '#/components/schemas/';

/** Who may call an operation (the 🔒 of docs/api.md); tests/integration/openapi.test.ts checks it against the handlers. */
export type Access = 'public' | 'customer' | 'optional' | 'operator';

/**
 * By path: the customer's calls and the session's own need a Bearer token; the checkout, a gift
 * certificate's purchase and a review's useful vote are open to guests and take a token when there is one; the operator's calls need the operator key.
 */
export function accessOf(path: string): Access {
  if (/^\/api\/v1\/ecommerce-core\/(customer\/|auth\/customer-(refresh-auth|logout)$)/.test(path)) return 'customer';
  if (
    path.startsWith('/api/v1/ecommerce-core/checkout/') ||
    path === '/api/v1/ecommerce-core/gift-certificates' ||
    path === '/api/v1/ecommerce-core/reviews/{id}/useful'
  )
    return 'optional';
  if (path.startsWith('/api/v1/ecommerce-core/ops/')) return 'operator';
  return 'public';
}

const SECURITY: Record<Access, JsonSchema[]> = {
  public: [],
  customer: [{ bearer: [] }],
  // Without the header a guest's call; with it, a customer's (401 when it is not a live session).
  optional: [{}, { bearer: [] }],
  operator: [{ operatorKey: [] }],
};

const FAILURE_WORDS: Record<number, string> = {
  400: 'Malformed request: a query or body that does not decode, JSON nested too deep, a missing required header',
  401: 'No session: the Authorization header is missing, or is not a live session',
  403: 'The operator key is missing or wrong',
  404: 'Not found: an unknown id in the path, or a record that is not the caller’s',
  409: 'Conflict with the current state: out of stock, an order that cannot move that way, nothing selected',
  413: 'The body is over 1 MB',
  415: 'The body is neither JSON nor a form',
  422: 'A field is invalid: `errors` names each one (the buyout form puts them under data.data, spec §7)',
  429: 'Too many requests from this address or for this account: Retry-After says when to come back',
};

/** The failure statuses an operation can answer: those every call can get, and those its spec names. */
export function failureStatuses(spec: Endpoint['spec'], access: Access): number[] {
  const statuses = new Set<number>([400, 422, ...(spec.failures ?? [])]);
  if (access === 'customer' || access === 'optional') statuses.add(401);
  if (access === 'operator') statuses.add(403);
  if (spec.params) statuses.add(spec.invalidParams?.status ?? 404);
  if (spec.body) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}

/**
 * One schema's JSON with its named parts referenced from components: zod puts schemas that carry an id
 * (and recursive ones) under the schema's own $defs; in one document they live in components.schemas.
 */
function hoisted(json: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const defs = (json['$defs'] ?? {}) as Record<string, JsonSchema>;
  delete json['$defs'];
  delete json['$schema'];
  delete json['$id'];
  const relink = (value: JsonSchema) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${COMPONENTS}`)) as JsonSchema;
  for (const [name, def] of Object.entries(defs)) components[name] ??= relink(def);
  return relink(json);
}

/** Parameters of one location from an object schema's JSON (its properties, and which are required). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', convert: (s: z.ZodType, io: 'input' | 'output') => JsonSchema): JsonSchema[] {
  if (!schema) return [];
  const json = convert(schema, 'input');
  const properties = (json['properties'] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s }));
}

function successOf(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'data'],
    properties: {
      success: { const: true },
      data,
      message: { type: 'string' },
      meta_data: { $ref: `${COMPONENTS}MetaData` },
      breadcrumbs: { type: 'array', items: { $ref: `${COMPONENTS}Crumb` } },
    },
  };
}

export function buildOpenApi(routes: readonly ApiRoute[], serverUrl: string): JsonSchema {
  // Named schemas (.meta({ id })) become components, referenced wherever they appear.
  const registry = z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', uri: (id) => `${COMPONENTS}${id}`, unrepresentable: 'any', cycles: 'ref' }) as {
    schemas: Record<string, JsonSchema>;
  };
  const components: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(registry.schemas)) components[name] = hoisted(schema, components);
  const convert = (schema: z.ZodType, io: 'input' | 'output') =>
    hoisted(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline', cycles: 'ref' }) as JsonSchema, components);
  const ref = (schema: z.ZodType): JsonSchema => {
    const id = z.globalRegistry.get(schema)?.id;
    return id && components[id] ? { $ref: `${COMPONENTS}${id}` } : convert(schema, 'output');
  };
  const failure = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: `${COMPONENTS}Failure` } } } });

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { path, method, endpoint } of routes) {
    const { spec } = endpoint;
    const access = accessOf(path);
    const success = { description: 'Success', content: { 'application/json': { schema: successOf(ref(spec.response)) } } };
    const operation: JsonSchema = {
      operationId: `${method.toLowerCase()}${path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: spec.summary,
      parameters: [
        ...parameters(spec.params, 'path', convert),
        ...parameters(spec.query, 'query', convert),
        { name: 'accept-language', in: 'header', required: false, schema: { type: 'string' }, description: 'ru (default) or en: the language of messages' },
      ],
      responses: {
        ...Object.fromEntries([200, ...(spec.statuses ?? [])].map((status) => [String(status), success])),
        ...Object.fromEntries(failureStatuses(spec, access).map((status) => [String(status), failure(FAILURE_WORDS[status] ?? 'Failure')])),
        '5XX': failure('The server cannot answer now: busy (503 with Retry-After), or the payment provider is unreachable (502)'),
      },
      security: SECURITY[access],
    };
    if (spec.body) {
      const body = convert(spec.body, 'input');
      operation['requestBody'] = { required: true, content: { 'application/json': { schema: body }, 'multipart/form-data': { schema: body } } };
    }
    (paths[path] ??= {})[method.toLowerCase()] = operation;
  }

  // Only the components some operation reaches: a named schema no answer uses as it is (the listing and
  // the product are answered extended) would be dead weight, and linters say so.
  const used = new Set<string>();
  const reach = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (!name || used.has(name) || !components[name]) continue;
      used.add(name);
      reach(components[name]);
    }
  };
  reach(paths);
  for (const name of Object.keys(components)) if (!used.has(name)) delete components[name];

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Brandshop storefront API',
      version: '1',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description:
        'Every answer is an envelope: { success: true, data, message?, meta_data?, breadcrumbs? } or { success: false, message, errors? }. Prices are kopecks. Messages follow accept-language (ru by default).',
    },
    servers: [{ url: serverUrl, description: 'The shop (SITE_URL)' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The access_token of login, registration or refresh (🔒 in docs/api.md)' },
        operatorKey: { type: 'apiKey', in: 'header', name: 'x-operator-token', description: 'OPERATOR_TOKEN, or the key kept in DATA_DIR/operator-token' },
      },
    },
  };
}
