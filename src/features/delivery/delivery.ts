// What checkout and the order know of delivery by a carrier (issue 38), whichever carrier it is: its
// cities, its pickup points and its quotes. Money in kopecks, weights in grams, sizes in centimetres.
import type { ArrivalRange } from './arrival.ts';

export type CarrierId = 'cdek';

/** A city as the carrier names and numbers it (its own code: CDEK's `code`). */
export interface CarrierCity {
  code: number;
  /** "Москва", "Владимир, Владимирская обл." */
  name: string;
}

export type PointKind = 'office' | 'postamat';

export interface PickupPoint {
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
  /** The heaviest parcel it takes, in grams (absent: no limit given). */
  maxWeight?: number;
}

export type DeliveryMode = 'pickup' | 'postamat' | 'courier';

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
}

/** A parcel's size for the carrier's calculator. */
export interface Parcel {
  weight: number;
  length: number;
  width: number;
  height: number;
}

/** A sealed quote (quote.server.ts) is shorter than this: a longer one is refused before anything is read. */
export const QUOTE_MAX_CHARS = 600;
