// The API's own route table, read from the endpoint modules of this folder (files starting with _ are
// not routes): the OpenAPI document is built from it, and the catch-all answers 405 with Allow from it.
import { apiRoutes, type ApiRoute } from '~/lib/http/openapi.ts';
import { pathPattern } from '~/lib/http/path-pattern.ts';

const modules = import.meta.glob<Record<string, unknown>>(['./**/*.ts', '!./_*.ts', '!./openapi.json.ts', '!./\\[...path\\].ts']);
let loaded: Promise<ApiRoute[]> | undefined;

export function routeTable(): Promise<ApiRoute[]> {
  loaded ??= Promise.all(Object.entries(modules).map(async ([file, load]) => [file, await load()] as const)).then((entries) =>
    apiRoutes(Object.fromEntries(entries)),
  );
  return loaded;
}

/** The methods a path answers, from the table ('/api/v1/x/5' matches '/api/v1/x/{id}'). */
export async function allowedMethods(path: string): Promise<string[]> {
  const methods = (await routeTable()).filter((r) => pathPattern(r.path).test(path)).map((r) => r.method);
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}
