// A delivery offer as checkout hands it back at placement (issue 38): sealed by the shop, so the price and
// dates a shopper was quoted are the ones charged — even if the carrier's tariff changed meanwhile — and
// a price edited in the browser is refused. The seal is an HMAC with a key of the shop's own
// (orders.server.ts purposeKey); a quote lives QUOTE_MINUTES, a checkout's length.
import { createHmac } from 'node:crypto';
import { z } from '~/lib/zod.ts';
import { sameSecret } from '~/lib/same-secret.ts';
import { CARRIER_IDS, QUOTE_MAX_CHARS, type DeliveryOffer } from './delivery.ts';

export const QUOTE_MINUTES = 60;

const sealedSchema = z.object({
  v: z.literal(2),
  carrier: z.enum(CARRIER_IDS),
  tariff: z.number().int(),
  mode: z.enum(['pickup', 'postamat', 'courier']),
  price: z.number().int().min(0),
  city: z.number().int(),
  /** The parcel priced (parcel.ts parcelKey): another parcel at placement is another price. */
  parcel: z.string().max(40),
  from: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  to: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  exp: z.number().int(),
});
export type SealedQuote = z.output<typeof sealedSchema>;

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest('base64url');

/** The offer as a string the browser carries to placement. */
export function sealQuote(key: Buffer, offer: DeliveryOffer, city: number, parcel: string, now = Date.now()): string {
  const sealed: SealedQuote = {
    v: 2,
    carrier: offer.carrier,
    tariff: offer.tariffCode,
    mode: offer.mode,
    price: offer.price,
    city,
    parcel,
    from: offer.arrival.from,
    to: offer.arrival.to,
    exp: Math.floor(now / 1000) + QUOTE_MINUTES * 60,
  };
  const body = Buffer.from(JSON.stringify(sealed)).toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/** The quote, if this shop sealed it and it has not run out; undefined for anything else. */
export function openQuote(key: Buffer, token: string, now = Date.now()): SealedQuote | undefined {
  if (token.length > QUOTE_MAX_CHARS) return undefined;
  const [body, seal, extra] = token.split('.');
  if (!body || !seal || extra !== undefined || !sameSecret(mac(key, body), seal)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const quote = sealedSchema.safeParse(parsed);
  if (!quote.success || quote.data.exp * 1000 <= now) return undefined;
  return quote.data;
}
