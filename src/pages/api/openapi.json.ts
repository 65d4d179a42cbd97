// GET /api/openapi.json: the API contract (OpenAPI 3.1), built from the endpoints' own schemas.
import type { APIRoute } from 'astro';
import { env } from '~/lib/env.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { buildOpenApi } from '~/lib/http/openapi.ts';
import { routeTable } from './_routes.ts';

let document: string | undefined;

export const GET: APIRoute = async () => {
  document ??= JSON.stringify(buildOpenApi(await routeTable(), env().SITE_URL));
  return new Response(document, { headers: { 'content-type': 'application/json; charset=utf-8', ...PUBLIC_CONTENT } });
};
