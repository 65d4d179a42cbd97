// The delivery calls' inputs and answers (docs/api.md "Delivery"): the single source of their types.
import { z } from '~/lib/zod.ts';
import { idSchema } from '~/features/catalog/catalog.schema.ts';
import { CARRIER_IDS } from './delivery.ts';

const cityCode = z.coerce.number().int().min(1).max(100_000_000);
const flag = z.enum(['1']).optional();

export const citiesQuerySchema = z.object({ q: z.string().trim().min(2).max(60) });
/** The city's name as the carrier of its code writes it: another carrier finds the city by it. */
const cityName = z.string().trim().min(1).max(100).optional();

export const pointsQuerySchema = z.object({
  city: cityCode,
  city_name: cityName,
  carrier: z.enum(CARRIER_IDS).optional(),
  q: z.string().trim().max(60).optional(),
  fitting_room: flag,
  card: flag,
  /** Only points where the parcel can be paid for on receipt. */
  cod: flag,
  kind: z.enum(['office', 'postamat']).optional(),
});
/** The lines being bought: the parcel is packed from their products' weights and sizes (docs/delivery.md "Parcels"). */
const parcelLine = z.object({ id: idSchema, quantity: z.number().int().min(1).max(999) });
export const optionsBodySchema = z.object({ city: cityCode, city_name: cityName, lines: z.array(parcelLine).min(1).max(100) });

/** Why the answer has no carrier's options: the shop has no carrier account, or the carrier cannot answer now. */
const fallback = z.enum(['not_configured', 'unavailable']).nullable().describe('null when the carrier answered; otherwise checkout offers the fixed methods');

export const citiesResponse = z.object({
  cities: z.array(z.object({ code: z.number().int(), name: z.string() })),
  fallback,
});
export const pointsResponse = z.object({
  points: z.array(
    z.object({
      carrier: z.enum(CARRIER_IDS),
      code: z.string(),
      name: z.string(),
      kind: z.enum(['office', 'postamat']),
      city_code: z.number().int(),
      address: z.string(),
      how_to_find: z.string().nullable(),
      metro: z.string().nullable(),
      hours: z.string(),
      latitude: z.number(),
      longitude: z.number(),
      fitting_room: z.boolean(),
      card: z.boolean(),
      cod: z.boolean().describe('the parcel can be paid for here on receipt (by card or cash, as the point takes)'),
    }),
  ),
  fallback,
});
export const optionsResponse = z.object({
  offers: z.array(
    z.object({
      carrier: z.enum(CARRIER_IDS),
      tariff_code: z.number().int(),
      tariff_name: z.string(),
      mode: z.enum(['pickup', 'postamat', 'courier']),
      price: z.number().int().describe('kopecks'),
      arrival_from: z.string().describe('YYYY-MM-DD'),
      arrival_to: z.string(),
      quote: z.string().describe('the offer sealed by the shop: placement charges its price and keeps its dates (valid 60 minutes)'),
      arrival: z.string().describe('as the shopper reads it, in the request\'s language ("25–27 November")'),
    }),
  ),
  fallback,
});
