// The 1C / MoySklad exchange (docs/exchange-1c.md). The front hands EXCHANGE_PATH here.
import type { APIRoute } from 'astro';
import { exchange } from '~/features/exchange/protocol.server.ts';

export const prerender = false;

export const ALL: APIRoute = ({ request, clientAddress }) => exchange(request, clientAddress);
