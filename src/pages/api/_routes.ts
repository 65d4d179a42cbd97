// The API's own route table, read from the endpoint modules of this folder (files starting with _ are
// not routes): the OpenAPI document is built from it, and the middleware answers 405 with Allow from it.
import { apiRoutes, type ApiRoute } from '~/lib/http/openapi.ts';
import { methodTable, type MethodTable } from '~/lib/http/edge.ts';

const modules = import.meta.glob<Record<string, unknown>>(['./**/*.ts', '!./_*.ts', '!./openapi.json.ts', '!./\\[...path\\].ts']);
let loaded: Promise<ApiRoute[]> | undefined;

export function routeTable(): Promise<ApiRoute[]> {
  loaded ??= Promise.all(Object.entries(modules).map(async ([file, load]) => [file, await load()] as const)).then((entries) =>
    apiRoutes(Object.fromEntries(entries)),
  );
  return loaded;
}

let methods: Promise<MethodTable> | undefined;

/** The methods each path answers, in the form the front builds from /api/openapi.json (edge.ts). */
export function routeMethods(): Promise<MethodTable> {
  methods ??= routeTable().then((routes) => {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const { path, method } of routes) (paths[path] ??= {})[method.toLowerCase()] = {};
    return methodTable({ paths });
  });
  return methods;
}
