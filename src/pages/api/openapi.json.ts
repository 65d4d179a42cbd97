// GET /api/openapi.json: the API contract (OpenAPI 3.1), built from the endpoints' own schemas.
import type { APIRoute } from 'astro';
import { env } from '~/lib/env.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { apiRoutes, buildOpenApi } from '~/lib/http/openapi.ts';

const modules = import.meta.glob<Record<string, unknown>>(['./**/*.ts', '!./openapi.json.ts']);
let document: string | undefined;

export const GET: APIRoute = async () => {
  if (!document) {
    const loaded = Object.fromEntries(await Promise.all(Object.entries(modules).map(async ([file, load]) => [file, await load()] as const)));
    document = JSON.stringify(buildOpenApi(apiRoutes(loaded), env().SITE_URL));
  }
  return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8', ...PUBLIC_CONTENT } });
};
