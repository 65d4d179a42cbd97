// Beyond the spec (docs/api.md "Delivery"): the carrier's cities whose names start with the letters typed,
// with the carrier's own codes, for checkout's city field.
import { citiesQuerySchema, citiesResponse } from '~/features/delivery/delivery.schema.ts';
import { suggestCities } from '~/features/delivery/delivery.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const GET = endpoint({
  summary: "Cities of the delivery carrier starting with `q` (2–60 characters), with the carrier's codes; `fallback` says why there are none from it",
  response: citiesResponse,
  query: citiesQuerySchema,
  async handler({ query }) {
    const answer = await suggestCities(query.q);
    return ok(answer.ok ? { cities: answer.value, fallback: null } : { cities: [], fallback: answer.fallback });
  },
});
