// A pickup point as the shopper reads it (its name, address, metro, hours, carrier, kind and what it offers), in the
// checkout's point list, on its map and on the no-script pickup page; and the map's tiles. Apart from
// CarrierDelivery.tsx, which loads the map (PickupMap.tsx) only when it is shown: the map draws points too.
import { carrierNameKey, type PointView } from './delivery.ts';
import { fill } from '~/lib/i18n/fill.ts';

/** Where the map's tiles come from (DELIVERY_MAP_TILES), and their attribution. */
export interface MapTiles {
  url: string;
  attribution: string;
}

export function PointDetails({ m, point }: { m: Record<string, string>; point: PointView }) {
  return (
    <>
      <span className="block font-600">{point.name}</span>
      <span className="block">{point.address}</span>
      {point.metro && <span className="block text-ink-soft">{fill(m['delivery.metro'] ?? '', { name: point.metro })}</span>}
      <span className="mt-1 block text-xs text-ink-soft">{fill(m['delivery.hours'] ?? '', { hours: point.hours })}</span>
      <span className="mt-1 flex flex-wrap gap-2 text-xs">
        <span className="bg-paper-warm px-2 py-0.5">{m[carrierNameKey(point.carrier)]}</span>
        <span className="bg-paper-warm px-2 py-0.5">{m[`delivery.kind.${point.kind}`]}</span>
        {point.fitting_room && <span className="bg-paper-warm px-2 py-0.5">{m['delivery.fittingRoom']}</span>}
        {point.card && <span className="bg-paper-warm px-2 py-0.5">{m['delivery.card']}</span>}
        {point.cod && <span className="bg-paper-warm px-2 py-0.5">{m['delivery.cod']}</span>}
      </span>
    </>
  );
}
