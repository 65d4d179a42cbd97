// What an order keeps of its delivery by a carrier (orders.delivery_carrier, issue 38) and the words it is
// written in: the carriers, the modes, the parcel. The order's record, so here, below delivery (features/delivery,
// which quotes, registers and tracks it and re-exports these: docs/decisions/027).

export const CARRIER_IDS = ['cdek', 'boxberry'] as const;
export type CarrierId = (typeof CARRIER_IDS)[number];

export type DeliveryMode = 'pickup' | 'postamat' | 'courier';

/** A parcel's size for the carrier's calculator. */
export interface Parcel {
  weight: number;
  length: number;
  width: number;
  height: number;
}

/** The message naming a carrier as shoppers know it ("СДЭК"). */
export const carrierNameKey = (carrier: CarrierId) => `delivery.carrier.${carrier}` as const;

/** What an order keeps of its carrier delivery (orders.delivery_carrier). */
export interface CarrierDeliveryRecord {
  carrier: CarrierId;
  /** The carrier's city: its code, and its name as the shopper chose it. */
  city?: { code: number; name: string };
  tariff: number;
  mode: DeliveryMode;
  price: number;
  arrival: { from: string; to: string };
  /** `cod`: the point takes payment on delivery (issue 55; absent on orders placed before, or while the carrier was down). */
  point: { code: string; name: string; address: string; hours: string; cod?: boolean; fittingRoom?: boolean } | null;
  /** Paid at the door (issue 55): trying on, and keeping only part of the order, as ordered. */
  services?: { tryOn: boolean; partial: boolean };
  /** The parcel quoted and charged (issue 38's parcels; orders placed before them have none). */
  parcel?: Parcel;
}
