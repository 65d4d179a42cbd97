// Checkout's delivery by a carrier (issue 38, docs/delivery.md): the city chosen from the carrier's own
// suggestions, the carrier's offers for it (a pickup point, a postamat, the door) with the price and the
// arrival dates, and for a point the point itself — from a list searchable by street or metro and
// filtered by fitting room and card payment, or on a map whose code (and the map library) loads only when
// the shopper opens it. The list is also a page of its own (/checkout/pickup) that works without
// JavaScript: the "from a list" control is a link to it that this island answers in place.
import { Component, lazy, Suspense, useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { formatPrice } from '~/lib/format.ts';
import { fill } from '~/lib/i18n/fill.ts';
import { citiesCall, optionsCall, pointListUrl, pointsCall, type FallbackView, type ParcelLineView } from './delivery.client.ts';
import { carrierNameKey, type CarrierCity, type CarrierId, type OfferView, type PointView } from './delivery.ts';
import { PointDetails, type MapTiles } from './PointDetails.tsx';

const PickupMap = lazy(() => import('./PickupMap.tsx'));

/** How many points the list shows before "show more". */
const PAGE = 20;

export interface CarrierSelection {
  offer: OfferView | null;
  point: PointView | null;
  /** Not null: the carrier cannot be used now (or for this city) and checkout shows the fixed methods. */
  fallback: FallbackView | 'no_offers';
}

interface Props {
  m: Record<string, string>;
  /** The lines being bought (their products make the parcel); empty until the summary has read them. */
  lines: readonly ParcelLineView[];
  city: CarrierCity | null;
  onCity: (city: CarrierCity | null) => void;
  /** A point chosen before this render (the no-JavaScript list's return, or a reload). */
  initialPoint: PointView | null;
  tiles: MapTiles | null;
  /** Asked for again after placement refused a quote as stale. */
  requote: number;
  onChange: (selection: CarrierSelection) => void;
  pointError?: string | undefined;
  /** The shopper's own radio inputs for the fixed methods, shown when the carrier is not used. */
  children?: ReactNode;
}

const same = (a: Pick<OfferView, 'carrier' | 'mode'> | null, b: Pick<OfferView, 'carrier' | 'mode'>) => a?.carrier === b.carrier && a.mode === b.mode;

export function offerTitle(m: Record<string, string>, offer: Pick<OfferView, 'mode' | 'carrier'>): string {
  return fill(m[`delivery.mode.${offer.mode}`] ?? '', { carrier: m[carrierNameKey(offer.carrier)] ?? offer.carrier });
}

export function CarrierDelivery({ m, lines, city, onCity, initialPoint, tiles, requote, onChange, pointError, children }: Props) {
  const [offers, setOffers] = useState<OfferView[] | null>(null);
  const [fallback, setFallback] = useState<CarrierSelection['fallback']>(null);
  const [offer, setOffer] = useState<OfferView | null>(null);
  const [point, setPoint] = useState<PointView | null>(initialPoint);
  const [panel, setPanel] = useState<'list' | 'map' | null>(null);

  // Asked again when what is bought changes, not when the summary is merely read again.
  const parcelKey = lines.map((l) => `${l.id}x${l.quantity}`).join(',');
  useEffect(() => {
    if (!city || lines.length === 0) {
      setOffers(null);
      setOffer(null);
      setFallback(null);
      return;
    }
    const controller = new AbortController();
    setOffers(null);
    optionsCall(city, lines, controller.signal)
      .then((answer) => {
        setOffers(answer.offers);
        setFallback(answer.fallback ?? (answer.offers.length === 0 ? 'no_offers' : null));
        setOffer((chosen) => {
          // The same way again after a re-quote; else the way of a point already chosen, else the first.
          const want = chosen ?? (point ? { carrier: point.carrier, mode: point.kind === 'postamat' ? 'postamat' : 'pickup' } : undefined);
          return answer.offers.find((o) => o.carrier === want?.carrier && o.mode === want.mode) ?? answer.offers[0] ?? null;
        });
      })
      .catch(() => {
        if (!controller.signal.aborted) setFallback('unavailable');
      });
    return () => controller.abort();
    // `point` is read only to choose the first way; `lines` through `parcelKey`.
  }, [city, parcelKey, requote]);

  // A point of another city or of the other kind is not this offer's point.
  const pointFits = Boolean(point && offer && city && point.carrier === offer.carrier && (point.kind === 'postamat') === (offer.mode === 'postamat'));
  const needsPoint = offer !== null && offer.mode !== 'courier';

  useEffect(() => {
    onChange({ offer: fallback ? null : offer, point: pointFits ? point : null, fallback });
  }, [offer, point, pointFits, fallback, onChange]);

  const unavailable = useCallback(() => setFallback('unavailable'), []);
  const kind = offer?.mode === 'postamat' ? 'postamat' : 'office';
  const pick = (p: PointView) => {
    setPoint(p);
    setPanel(null);
  };

  // The carrier cannot be used now or for this city: today's fixed methods, with a note saying why.
  if (fallback)
    return (
      <>
        <p className="bg-paper-warm p-3 text-sm" role="status" data-testid="delivery-fallback">
          {fallback === 'no_offers' ? m['delivery.noOffers'] : m['delivery.fallback']}{' '}
          {fallback === 'no_offers' && (
            <button
              type="button"
              onClick={() => {
                setFallback(null);
                onCity(null);
              }}
              className="cursor-pointer font-600 underline underline-offset-4"
            >
              {m['delivery.otherCity']}
            </button>
          )}
        </p>
        {children}
      </>
    );

  return (
    <div className="grid gap-4">
      <CityField m={m} city={city} onCity={onCity} onUnavailable={unavailable} />
      {city && !offers && (
        <p className="text-sm text-ink-muted" role="status">
          {m['delivery.loading']}
        </p>
      )}
      {offers && offers.length > 0 && (
        <div className="grid gap-3" role="radiogroup" aria-label={m['checkout.delivery']}>
          {offers.map((o) => (
            <label
              key={`${o.carrier}:${o.mode}`}
              className={`flex cursor-pointer gap-3 border p-4 text-sm ${same(offer, o) ? 'border-ink' : 'border-line hover:border-ink-soft'}`}
            >
              <input
                type="radio"
                name="carrier-offer"
                value={`${o.carrier}:${o.mode}`}
                checked={same(offer, o)}
                onChange={() => setOffer(o)}
                className="mt-0.5 h-4 w-4 shrink-0 accent-ink"
              />
              <span className="min-w-0 flex-1">
                <span className="flex flex-wrap justify-between gap-x-4 font-600">
                  <span>{offerTitle(m, o)}</span>
                  <span className="tabular-nums" data-testid={`offer-price-${o.carrier}-${o.mode}`}>
                    {formatPrice(o.price)}
                  </span>
                </span>
                <span className="mt-1 block text-xs text-ink-soft" data-testid={`offer-arrival-${o.carrier}-${o.mode}`}>
                  {fill(m['delivery.arrives'] ?? '', { dates: o.arrival })}
                </span>
              </span>
            </label>
          ))}
        </div>
      )}
      {needsPoint && city && (
        <div className="grid gap-3">
          {pointFits && point ? (
            <div className="border border-ink p-4 text-sm" data-testid="chosen-point">
              <PointDetails m={m} point={point} />
            </div>
          ) : (
            <p className={`text-sm ${pointError ? 'text-danger' : 'text-ink-soft'}`} role={pointError ? 'alert' : undefined}>
              {pointError ?? m['delivery.choosePoint']}
            </p>
          )}
          <div className="flex flex-wrap gap-3">
            <a
              href={pointListUrl(city, kind, offer?.carrier, lines)}
              onClick={(event) => {
                event.preventDefault();
                setPanel((p) => (p === 'list' ? null : 'list'));
              }}
              aria-expanded={panel === 'list'}
              className="btn-outline"
            >
              {pointFits ? m['delivery.change'] : m['delivery.list']}
            </a>
            <button type="button" onClick={() => setPanel((p) => (p === 'map' ? null : 'map'))} aria-expanded={panel === 'map'} className="btn-outline">
              {panel === 'map' ? m['delivery.closeMap'] : m['delivery.map']}
            </button>
          </div>
          {panel === 'list' && offer && <PointList m={m} city={city} carrier={offer.carrier} kind={kind} chosen={pointFits ? point : null} onPick={pick} />}
          {panel === 'map' && (
            <MapBoundary fallback={<p className="text-sm text-danger">{m['delivery.mapFailed']}</p>}>
              <Suspense fallback={<p className="text-sm text-ink-muted">{m['delivery.mapLoading']}</p>}>
                {offer && <MapWithPoints m={m} city={city} carrier={offer.carrier} kind={kind} chosen={pointFits ? point : null} onPick={pick} tiles={tiles} />}
              </Suspense>
            </MapBoundary>
          )}
        </div>
      )}
    </div>
  );
}

/** The city input with the carrier's suggestions: typing asks after 2 letters, a suggestion chooses. */
function CityField({
  m,
  city,
  onCity,
  onUnavailable,
}: {
  m: Record<string, string>;
  city: CarrierCity | null;
  onCity: (city: CarrierCity | null) => void;
  onUnavailable: () => void;
}) {
  const id = useId();
  const [text, setText] = useState(city?.name ?? '');
  const [found, setFound] = useState<CarrierCity[] | null>(null);
  const [active, setActive] = useState(0);
  const [open, setOpen] = useState(false);

  useEffect(() => setText(city?.name ?? ''), [city]);

  useEffect(() => {
    const word = text.trim();
    if (!open || word.length < 2 || word === city?.name) {
      setFound(null);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      citiesCall(word, controller.signal)
        .then((answer) => {
          if (answer.fallback) onUnavailable();
          setFound(answer.cities.slice(0, 8));
          setActive(0);
        })
        .catch(() => controller.signal.aborted || onUnavailable());
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, open, city, onUnavailable]);

  const choose = (c: CarrierCity) => {
    onCity(c);
    setText(c.name);
    setFound(null);
    setOpen(false);
  };
  const listId = `${id}-list`;
  const shown = open && found !== null;
  return (
    <div className="relative">
      <label htmlFor={id} className="mb-1.5 block text-xs font-600 uppercase tracking-wider text-ink-soft">
        {m['checkout.city']}
      </label>
      <input
        id={id}
        role="combobox"
        aria-expanded={shown}
        aria-controls={listId}
        aria-autocomplete="list"
        autoComplete="address-level2"
        placeholder={m['delivery.cityPlaceholder']}
        value={text}
        data-testid="delivery-city"
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          if (city && event.target.value !== city.name) onCity(null);
        }}
        onKeyDown={(event) => {
          if (!found?.length) return;
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((i) => (i + (event.key === 'ArrowDown' ? 1 : found.length - 1)) % found.length);
          } else if (event.key === 'Enter') {
            // Enter chooses the suggestion; it never submits the order.
            event.preventDefault();
            const c = found[active];
            if (c) choose(c);
          } else if (event.key === 'Escape') setOpen(false);
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        className="h-11 w-full border border-line bg-paper px-3 text-sm outline-none focus:border-ink"
      />
      {!city && text.trim().length >= 2 && !shown && <p className="mt-1 text-xs text-ink-muted">{m['delivery.cityPick']}</p>}
      {shown && (
        <ul id={listId} role="listbox" className="absolute inset-x-0 top-full z-20 max-h-72 overflow-auto border border-ink bg-paper shadow-lg">
          {found.length === 0 ? (
            <li className="p-3 text-sm text-ink-muted">{m['delivery.cityNone']}</li>
          ) : (
            found.map((c, i) => (
              <li
                key={c.code}
                role="option"
                aria-selected={i === active}
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(c);
                }}
                className={`cursor-pointer px-3 py-2.5 text-sm ${i === active ? 'bg-paper-warm' : ''}`}
              >
                {c.name}
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}

interface ListProps {
  m: Record<string, string>;
  city: CarrierCity;
  carrier: CarrierId;
  kind: 'office' | 'postamat';
  chosen: PointView | null;
  onPick: (point: PointView) => void;
}

function PointList({ m, city, carrier, kind, chosen, onPick }: ListProps) {
  const [q, setQ] = useState('');
  const [fittingRoom, setFittingRoom] = useState(false);
  const [card, setCard] = useState(false);
  const [points, setPoints] = useState<PointView[] | null>(null);
  const [shown, setShown] = useState(PAGE);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      pointsCall({ city, carrier, q, fitting_room: fittingRoom, card, kind }, controller.signal)
        .then((answer) => {
          setPoints(answer.points);
          setShown(PAGE);
        })
        .catch(() => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [city, carrier, q, fittingRoom, card, kind]);

  return (
    <div className="grid gap-3 border border-line p-4" data-testid="point-list">
      <input
        type="search"
        value={q}
        maxLength={60}
        aria-label={m['delivery.search']}
        placeholder={m['delivery.search']}
        onChange={(event) => setQ(event.target.value)}
        onKeyDown={(event) => event.key === 'Enter' && event.preventDefault()}
        className="h-11 w-full border border-line bg-paper px-3 text-sm outline-none focus:border-ink"
      />
      <div className="flex flex-wrap gap-4 text-sm">
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" checked={fittingRoom} onChange={() => setFittingRoom((v) => !v)} className="h-4 w-4 accent-ink" />
          {m['delivery.fittingRoom']}
        </label>
        <label className="flex cursor-pointer items-center gap-2">
          <input type="checkbox" checked={card} onChange={() => setCard((v) => !v)} className="h-4 w-4 accent-ink" />
          {m['delivery.card']}
        </label>
        {points && <span className="ml-auto text-ink-muted">{fill(m['delivery.found'] ?? '', { count: points.length })}</span>}
      </div>
      {points === null ? (
        <p className="text-sm text-ink-muted">{m['delivery.loading']}</p>
      ) : points.length === 0 ? (
        <p className="text-sm text-ink-muted">{m['delivery.noPoints']}</p>
      ) : (
        <ul className="max-h-[28rem] divide-y divide-line overflow-auto">
          {points.slice(0, shown).map((p) => (
            <li key={p.code} className="flex items-start gap-3 py-3 text-sm">
              <span className="min-w-0 flex-1">
                <PointDetails m={m} point={p} />
              </span>
              <button
                type="button"
                onClick={() => onPick(p)}
                aria-pressed={chosen?.code === p.code}
                aria-label={`${m['delivery.pick']}: ${p.address}`}
                className="btn-outline shrink-0"
              >
                {chosen?.code === p.code ? m['delivery.picked'] : m['delivery.pick']}
              </button>
            </li>
          ))}
        </ul>
      )}
      {points && points.length > shown && (
        <button type="button" onClick={() => setShown((n) => n + PAGE)} className="w-fit cursor-pointer text-sm underline underline-offset-4">
          {m['delivery.more']}
        </button>
      )}
    </div>
  );
}

/** The map with every point of the city of this kind; the map's own code loads with it. */
function MapWithPoints({ m, city, carrier, kind, chosen, onPick, tiles }: ListProps & { tiles: MapTiles | null }) {
  const [points, setPoints] = useState<PointView[] | null>(null);
  const asked = useRef(0);
  useEffect(() => {
    const n = ++asked.current;
    pointsCall({ city, carrier, kind })
      .then((answer) => n === asked.current && setPoints(answer.points))
      .catch(() => n === asked.current && setPoints([]));
  }, [city, carrier, kind]);
  if (!points) return <p className="text-sm text-ink-muted">{m['delivery.mapLoading']}</p>;
  return <PickupMap m={m} points={points} chosen={chosen} onPick={onPick} tiles={tiles} />;
}

/** A map chunk that failed to load (a dropped connection) says so; the list still works. */
class MapBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
