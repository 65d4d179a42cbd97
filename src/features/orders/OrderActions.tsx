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

/** Longitude 19–180, latitude 41–72 onto 600 × 300: Russia's extent, flat (a sketch, not a survey). */
function project([lat, lon]: [number, number]): [number, number] {
  return [((lon - 19) / (180 - 19)) * 560 + 20, ((72 - lat) / (72 - 41)) * 260 + 20];
}

function place(city: string): [number, number] | null {
  const key = city
    .trim()
    .toLowerCase()
    .replace(/^г\.?\s*/u, '');
  const [lat, lon] = known[key] ?? [];
  return lat === undefined || lon === undefined ? null : project([lat, lon]);
}

function RouteMap({ city, address, lastPlace, m }: Pick<Props, 'city' | 'address' | 'lastPlace' | 'm'>) {
  const from = project(WAREHOUSE);
  const to = place(city) ?? [from[0] + 120, from[1] + 40];
  const parcel = lastPlace ? place(lastPlace) : null;
  const bend: [number, number] = [(from[0] + to[0]) / 2, Math.min(from[1], to[1]) - 40];
  return (
    <figure>
      <svg viewBox="0 0 600 300" role="img" aria-label={`${m['orderPage.mapFrom']} → ${city}`} className="w-full border border-line bg-paper-warm">
        <defs>
          <pattern id="grid" width="30" height="30" patternUnits="userSpaceOnUse">
            <path d="M30 0H0V30" fill="none" stroke="currentColor" strokeOpacity="0.08" />
          </pattern>
        </defs>
        <rect width="600" height="300" fill="url(#grid)" className="text-ink" />
        <path
          d={`M${from[0]} ${from[1]} Q${bend[0]} ${bend[1]} ${to[0]} ${to[1]}`}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeDasharray="6 6"
          className="text-ink-soft"
        />
        <circle cx={from[0]} cy={from[1]} r="6" className="fill-ink" />
        <text x={from[0] + 10} y={from[1] - 10} className="fill-ink text-[13px]">
          {m['orderPage.mapFrom']}
        </text>
        <circle cx={to[0]} cy={to[1]} r="8" className="fill-accent" />
        <text x={Math.min(to[0] + 12, 480)} y={to[1] + 24} className="fill-ink text-[13px] font-600">
          {city}
        </text>
        {parcel && <rect x={parcel[0] - 6} y={parcel[1] - 6} width="12" height="12" className="fill-success" />}
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
      await api(`/api/v1/ecommerce-core/customer/orders/${code}/${action}`, { method: 'POST' });
      if (action === 'cancel') {
        // The page shows the cancelled order with its history.
        location.reload();
        return;
      }
      setCanCancel(false);
      setCanReturn(false);
      setReturnAsked(true);
      showToast(m['orders.returnRequested'] ?? '', 'success');
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
