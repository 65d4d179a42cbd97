// Every /api/… request no endpoint answered. The middleware turns this bare 404 into the envelope: a
// 405 with Allow when the path has other methods (the route table, _routes.ts), else "no such call" —
// never the HTML 404 page.
import type { APIRoute } from 'astro';

export const ALL: APIRoute = () => new Response(null, { status: 404 });
