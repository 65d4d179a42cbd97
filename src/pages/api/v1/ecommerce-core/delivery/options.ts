// Beyond the spec (docs/api.md "Delivery"): what the carriers offer to a city for the parcel of the lines
// being bought (their products' weights and sizes, packed: parcel.ts) — each carrier's cheapest tariff to a pickup point, a postamat and the door, each with its price and the
// arrival dates of an order placed now, each sealed (quote.server.ts) for placement to charge as quoted.
// Writes nothing.
import { formatArrival } from '~/features/delivery/arrival.ts';
import { optionsBodySchema, optionsResponse } from '~/features/delivery/delivery.schema.ts';
import { deliveryOffers } from '~/features/delivery/delivery.server.ts';
import { parcelKey } from '~/features/delivery/delivery.parcel.ts';
import { parcelOf } from '~/features/delivery/delivery.parcel.server.ts';
import { sealQuote } from '~/features/delivery/quote.server.ts';
import { purposeKey } from '~/features/orders/orders.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

export const POST = endpoint({
  summary: 'Delivery offers of the carrier to a city (its carrier code) for the parcel of the lines being bought, with prices in kopecks and arrival dates',
  response: optionsResponse,
  body: optionsBodySchema,
  async handler({ body, locale }) {
    const parcel = await parcelOf(body.lines.map((l) => ({ productId: l.id, quantity: l.quantity })));
    const answer = await deliveryOffers({ code: body.city, name: body.city_name ?? '' }, parcel);
    if (!answer.ok) return ok({ offers: [], fallback: answer.fallback });
    const key = await purposeKey('delivery-quote');
    return ok({
      offers: answer.value.map((o) => ({
        carrier: o.carrier,
        tariff_code: o.tariffCode,
        tariff_name: o.tariffName,
        mode: o.mode,
        price: o.price,
        arrival_from: o.arrival.from,
        arrival_to: o.arrival.to,
        quote: sealQuote(key, o, o.cityCode, parcelKey(parcel)),
        arrival: formatArrival(o.arrival, locale),
      })),
      fallback: null,
    });
  },
});
