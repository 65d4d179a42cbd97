// The order page's actions (spec §4 order line: cancel and return when the server says 1) and the
// delivery map modal: a sketch drawn here from the warehouse to the delivery city — no map tiles from
// anywhere — with the parcel's last reported place.
import { useState } from 'react';
import { Modal } from '~/components/ui/Modal.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { api, ApiError } from '~/lib/api.client.ts';
import { initSession } from '~/features/auth/auth.store.ts';
import cities from './cities.json';

interface Props {
  code: string;
  canCancel: boolean;
  canReturn: boolean;
  returnAsked: boolean;
  city: string;
  address: string;
  lastPlace: string | null;
  m: Record<string, string>;
}

const WAREHOUSE: [number, number] = [55.76, 37.62];
const known: Record<string, readonly number[]> = cities;

const W = 400;
const H = 240;
const PAD = 60;

/** Latitude and longitude of a known city (src/features/orders/cities.json), or null. */
function coordinates(city: string): [number, number] | null {
  const key = city
    .trim()
    .toLowerCase()
    .replace(/^г\.?\s*/u, '');
  const [lat, lon] = known[key] ?? [];
  return lat === undefined || lon === undefined ? null : [lat, lon];
}

/**
 * A flat projection framed on the points it must show (the warehouse, the destination, the parcel), with
 * at least a few degrees around them, so a route from Moscow to Kazan fills the picture as one to
 * Vladivostok does. A sketch, not a survey: longitude shrunk by the cosine of the middle latitude.
 */
function frame(points: [number, number][]): (p: [number, number]) => [number, number] {
  const lats = points.map((p) => p[0]);
  const lons = points.map((p) => p[1]);
  const mid = (Math.min(...lats) + Math.max(...lats)) / 2;
  const k = Math.cos((mid * Math.PI) / 180);
  const xs = lons.map((l) => l * k);
  // One scale for both axes (no stretching), as large as the wider extent allows; a few degrees at least.
  const dx = Math.max(Math.max(...xs) - Math.min(...xs), 1);
  const dy = Math.max(Math.max(...lats) - Math.min(...lats), 1);
  const scale = Math.min((W - 2 * PAD) / dx, (H - 2 * PAD) / dy, (W - 2 * PAD) / 4);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...lats) + Math.max(...lats)) / 2;
  return ([lat, lon]) => [W / 2 + (lon * k - cx) * scale, H / 2 - (lat - cy) * scale];
}

function RouteMap({ city, address, lastPlace, m }: Pick<Props, 'city' | 'address' | 'lastPlace' | 'm'>) {
  // An unknown city is drawn a little east of the warehouse: the sketch still shows the way.
  const destination = coordinates(city) ?? [WAREHOUSE[0] - 1, WAREHOUSE[1] + 6];
  const parcelAt = lastPlace ? coordinates(lastPlace) : null;
  const project = frame([WAREHOUSE, destination, ...(parcelAt ? [parcelAt] : [])]);
  const from = project(WAREHOUSE);
  const to = project(destination);
  const parcel = parcelAt ? project(parcelAt) : null;
  const bend: [number, number] = [(from[0] + to[0]) / 2, Math.min(from[1], to[1]) - 30];
  // Each label under its point (the route bends upwards) and on its outer side, so nothing runs into another.
  const fromLeft = from[0] <= to[0];
  return (
    <figure>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${m['orderPage.mapFrom']} → ${city}`} className="w-full border border-line bg-paper-warm">
        <defs>
          <pattern id="grid" width="20" height="20" patternUnits="userSpaceOnUse">
            <path d="M20 0H0V20" fill="none" stroke="currentColor" strokeOpacity="0.08" />
          </pattern>
        </defs>
        <rect width={W} height={H} fill="url(#grid)" className="text-ink" />
        <path
          d={`M${from[0]} ${from[1]} Q${bend[0]} ${bend[1]} ${to[0]} ${to[1]}`}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeDasharray="6 6"
          className="text-ink-soft"
        />
        {parcel && <circle cx={parcel[0]} cy={parcel[1]} r="13" fill="none" strokeWidth="3" className="stroke-success" />}
        <circle cx={from[0]} cy={from[1]} r="6" className="fill-ink" />
        <text x={from[0] + (fromLeft ? -12 : 12)} y={from[1] + 22} textAnchor={fromLeft ? 'start' : 'end'} className="fill-ink text-[14px]">
          {m['orderPage.mapFrom']}
        </text>
        <circle cx={to[0]} cy={to[1]} r="7" className="fill-accent" />
        <text x={to[0] + (fromLeft ? 12 : -12)} y={to[1] + 30} textAnchor={fromLeft ? 'end' : 'start'} className="fill-ink text-[15px] font-600">
          {city}
        </text>
      </svg>
      <figcaption className="mt-3 text-sm">
        <span className="font-600">{city}</span>, {address}
        <span className="mt-1 block text-xs text-ink-muted">{m['orderPage.mapNote']}</span>
      </figcaption>
    </figure>
  );
}

export default function OrderActions(props: Props) {
  const { code, m } = props;
  const [canCancel, setCanCancel] = useState(props.canCancel);
  const [canReturn, setCanReturn] = useState(props.canReturn);
  const [returnAsked, setReturnAsked] = useState(props.returnAsked);
  const [busy, setBusy] = useState(false);
  const [map, setMap] = useState(false);

  const act = async (action: 'cancel' | 'return') => {
    if (!confirm(m[action === 'cancel' ? 'orderPage.cancelConfirm' : 'orderPage.returnConfirm'])) return;
    initSession();
    setBusy(true);
    try {
      const answer = await api<{ delivery: { carrier: { return: string | null } | null } }>(`/api/v1/ecommerce-core/customer/orders/${code}/${action}`, {
        method: 'POST',
      });
      if (action === 'cancel') {
        // The page shows the cancelled order with its history.
        location.reload();
        return;
      }
      setCanCancel(false);
      setCanReturn(false);
      setReturnAsked(true);
      showToast(m['orders.returnRequested'] ?? '', 'success');
      // A return made with the carrier: the page says where to hand the parcel in (issue 55).
      if (answer.delivery.carrier?.return) location.reload();
    } catch (error) {
      showToast(error instanceof ApiError ? error.message : (m['error.network'] ?? ''), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-wrap gap-3">
      <button type="button" onClick={() => setMap(true)} className="btn-outline">
        {m['orderPage.map']}
      </button>
      {canCancel && (
        <button type="button" disabled={busy} onClick={() => void act('cancel')} className="btn-outline disabled:opacity-60">
          {m['orderPage.cancel']}
        </button>
      )}
      {canReturn && (
        <button type="button" disabled={busy} onClick={() => void act('return')} className="btn-outline disabled:opacity-60">
          {m['orderPage.return']}
        </button>
      )}
      {returnAsked && <p className="self-center text-sm text-success">{m['orderPage.returnAsked']}</p>}
      <Modal open={map} onClose={() => setMap(false)} title={m['orderPage.mapTitle'] ?? ''} closeLabel={m['orderPage.close'] ?? ''}>
        <RouteMap city={props.city} address={props.address} lastPlace={props.lastPlace} m={m} />
      </Modal>
    </div>
  );
}
