// The API contract in the tests: every answer the integration tests receive is validated against the
// OpenAPI document the server publishes (/api/openapi.json), so the document cannot drift from what
// the endpoints really answer.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { pathPattern } from '../../src/lib/http/path-pattern.ts';

type Json = Record<string, unknown>;

export interface Contract {
  document: Json;
  /** Validates one answer; returns the errors (empty when it conforms). */
  check(method: string, path: string, status: number, body: unknown): string[];
}

export async function loadContract(baseUrl: string): Promise<Contract> {
  const document = (await (await fetch(new URL('/api/openapi.json', baseUrl))).json()) as Json;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  const components = document['components'];
  const compiled = new Map<Json, ValidateFunction>();
  // Refs point at #/components/schemas/…: each response schema is compiled with the components beside it.
  const validator = (schema: Json) => {
    let fn = compiled.get(schema);
    if (!fn) compiled.set(schema, (fn = ajv.compile({ ...schema, components })));
    return fn;
  };
  const paths = Object.entries(document['paths'] as Record<string, Record<string, Json>>).map(([template, ops]) => ({
    matcher: pathPattern(template),
    ops,
  }));
  const failure = { $ref: '#/components/schemas/Failure' };

  return {
    document,
    check(method, rawPath, status, body) {
      const path = new URL(rawPath, baseUrl).pathname;
      const operation = paths.find((p) => p.matcher.test(path))?.ops[method.toLowerCase()];
      let schema: Json;
      if (!operation) {
        // An unknown path or method answers the failure envelope.
        if (status < 400) return [`${method} ${path} answered ${status} but is not in the document`];
        schema = failure;
      } else {
        const responses = operation['responses'] as Record<string, Json>;
        // Every failure a caller can meet below 500 is listed by its own status; 5XX is one range.
        const response = responses[String(status)] ?? (status >= 500 ? responses['5XX'] : undefined);
        if (!response) return [`${method} ${path}: status ${status} is not documented`];
        schema = ((response['content'] as Json)['application/json'] as Json)['schema'] as Json;
      }
      const validate = validator(schema);
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${method} ${path} ${status}: ${e.instancePath || '/'} ${e.message ?? ''}`);
    },
  };
}
