// What checkout and the order know of delivery by a carrier (issue 38), whichever carrier it is: its
// cities, its pickup points and its quotes. Money in kopecks, weights in grams, sizes in centimetres.
import type { ArrivalRange } from './arrival.ts';
import type { CarrierId, DeliveryMode } from '~/features/orders/orders.carrier.ts';

// The carriers, their modes, a parcel and what an order keeps of its delivery are the order's record
// (orders.carrier.ts): orders sit below delivery (docs/decisions/027).
export { CARRIER_IDS, carrierNameKey, type CarrierDeliveryRecord, type CarrierId, type DeliveryMode, type Parcel } from '~/features/orders/orders.carrier.ts';

/** A city as the carrier names and numbers it (its own code: CDEK's `code`). */
export interface CarrierCity {
  code: number;
  /** "Москва", "Владимир, Владимирская обл." */
  name: string;
}

export type PointKind = 'office' | 'postamat';

export interface PickupPoint {
  carrier: CarrierId;
  code: string;
  name: string;
  kind: PointKind;
  cityCode: number;
  address: string;
  /** Where it is in the building, how to find it. */
  howToFind?: string;
  metro?: string;
  /** "Пн-Пт 10:00-20:00, Сб 10:00-16:00". */
  hours: string;
  latitude: number;
  longitude: number;
  fittingRoom: boolean;
  /** Can be paid at by card. */
  card: boolean;
  /** Takes payment on delivery for the shop (CDEK's allowed_cod, Boxberry's not OnlyPrepaidOrders). */
  cod: boolean;
  /** The heaviest parcel it takes, in grams (absent: no limit given). */
  maxWeight?: number;
}

export interface CarrierQuote {
  carrier: CarrierId;
  tariffCode: number;
  tariffName: string;
  mode: DeliveryMode;
  /** The carrier's price, in kopecks. */
  price: number;
  /** The carrier's transit, in working days. */
  periodMin: number;
  periodMax: number;
}

/** A quote as checkout offers it: with the shop's price and the arrival dates. */
export interface DeliveryOffer extends CarrierQuote {
  arrival: ArrivalRange;
  /** The carrier's own code of the city (Boxberry's differ from CDEK's). */
  cityCode: number;
}

/** A sealed quote (quote.server.ts) is shorter than this: a longer one is refused before anything is read. */
export const QUOTE_MAX_CHARS = 600;

/** A pickup point as the API and the pages give it to the browser. */
export interface PointView {
  carrier: CarrierId;
  code: string;
  name: string;
  kind: PointKind;
  city_code: number;
  address: string;
  how_to_find: string | null;
  metro: string | null;
  hours: string;
  latitude: number;
  longitude: number;
  fitting_room: boolean;
  card: boolean;
  cod: boolean;
}

export function pointView(p: PickupPoint): PointView {
  return {
    carrier: p.carrier,
    code: p.code,
    name: p.name,
    kind: p.kind,
    city_code: p.cityCode,
    address: p.address,
    how_to_find: p.howToFind ?? null,
    metro: p.metro ?? null,
    hours: p.hours,
    latitude: p.latitude,
    longitude: p.longitude,
    fitting_room: p.fittingRoom,
    card: p.card,
    cod: p.cod,
  };
}

/** A carrier's offer as checkout shows it (POST …/delivery/options). */
export interface OfferView {
  carrier: CarrierId;
  tariff_code: number;
  tariff_name: string;
  mode: DeliveryMode;
  price: number;
  arrival_from: string;
  arrival_to: string;
  quote: string;
  arrival: string;
}

export { formatArrival } from './arrival.ts';
