// Beyond the spec (docs/api.md "Delivery"): a city's pickup points, searchable by street, metro or name and
// filtered by fitting room, card payment and office or postamat — the list checkout shows without JavaScript.
import { pointsQuerySchema, pointsResponse } from '~/features/delivery/delivery.schema.ts';
import { pickupPoints } from '~/features/delivery/delivery.server.ts';
import { pointView } from '~/features/delivery/delivery.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: "A city's pickup points (its carrier code in `city`), filtered by `q`, `fitting_room=1`, `card=1`, `cod=1` and `kind`",
  response: pointsResponse,
  query: pointsQuerySchema,
  async handler({ query }) {
    const answer = await pickupPoints(
      { code: query.city, name: query.city_name ?? '' },
      { q: query.q, fittingRoom: query.fitting_room === '1', card: query.card === '1', cod: query.cod === '1', kind: query.kind, carrier: query.carrier },
    );
    if (!answer.ok) return ok({ points: [], fallback: answer.fallback });
    return ok({
      points: answer.value.map(pointView),
      fallback: null,
    });
  },
});
