import { localeFromHeader, t } from '~/lib/i18n/index.ts';
import { fail } from '~/lib/http/envelope.ts';
import type { APIRoute } from 'astro';

// Unknown /api/… paths answer in the envelope, never with the HTML 404 page.
export const ALL: APIRoute = ({ request }) => fail(404, t(localeFromHeader(request.headers.get('accept-language')), 'error.unknownApi'));
