// The API contract, generated rather than kept by hand (OpenAPI 3.1): every endpoint made with
// `endpoint()` carries its params, query, body and answer schemas, and this builds the document from
// them with zod's own JSON Schema output. Served at /api/openapi.json; the integration tests validate
// every answer they receive against it.
import { z } from 'zod';
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

/**
 * An API route file (as import.meta.glob names it, relative to src/pages/api) to its OpenAPI path, or
 * null for the catch-all that answers unknown paths: './v1/x/[id].ts' → '/api/v1/x/{id}';
 * './v1/y/index.ts' → '/api/v1/y/'.
 */
export function apiPathOf(file: string): string | null {
  const rel = file.replace(/^\.\//, '').replace(/\.ts$/, '');
  if (/\[\.\.\./.test(rel)) return null;
  const path = rel.replace(/(^|\/)index$/, '$1').replace(/\[(\w+)\]/g, '{$1}');
  return `/api/${path}`;
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
  const failure = {
    description: 'The failure envelope: a message in the request’s language, field errors on 422',
    content: { 'application/json': { schema: { $ref: `${COMPONENTS}Failure` } } },
  };

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const { path, method, endpoint } of routes) {
    const { spec } = endpoint;
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
        '4XX': failure,
        '5XX': failure,
      },
    };
    if (spec.body) {
      const body = convert(spec.body, 'input');
      operation['requestBody'] = { required: true, content: { 'application/json': { schema: body }, 'multipart/form-data': { schema: body } } };
    }
    (paths[path] ??= {})[method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Brandshop storefront API',
      version: '1',
      description:
        'Every answer is an envelope: { success: true, data, message?, meta_data?, breadcrumbs? } or { success: false, message, errors? }. Prices are kopecks. Messages follow accept-language (ru by default).',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: { schemas: components },
  };
}
