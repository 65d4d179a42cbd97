// The pickup points on a map (issue 38): loaded only when the shopper opens the map, with Leaflet, which
// comes in this chunk and never with the page. Points are drawn as vector circles (no marker images to
// host); a tap on one shows its address and hours and chooses it. The tiles come from MAP_TILES_URL
// (OpenStreetMap's by default); without them the points still show on a plain ground.
import L from 'leaflet';
// The file's address, not an import of its rules: Astro would add an imported stylesheet to the checkout
// page's own, and the map's styles would load with the page.
import leafletCss from 'leaflet/dist/leaflet.css?url';
import { useEffect, useRef, useState } from 'react';
import { PointDetails } from './PointDetails.tsx';
import type { PointView } from './delivery.ts';
import type { MapTiles } from './PointDetails.tsx';

interface Props {
  m: Record<string, string>;
  points: PointView[];
  chosen: PointView | null;
  onPick: (point: PointView) => void;
  tiles: MapTiles | null;
}

let styled: Promise<void> | undefined;
/** Leaflet's stylesheet, linked once, when the first map opens. */
function leafletStyles(): Promise<void> {
  styled ??= new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = leafletCss;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
  return styled;
}

const STYLE = { radius: 7, weight: 2, color: '#1a1a1a', fillColor: '#ffffff', fillOpacity: 1 };
const CHOSEN = { ...STYLE, radius: 9, fillColor: '#1a1a1a' };

export default function PickupMap({ m, points, chosen, onPick, tiles }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [focused, setFocused] = useState<PointView | null>(chosen);

  const [ready, setReady] = useState(false);
  useEffect(() => {
    void leafletStyles().then(() => setReady(true));
  }, []);

  useEffect(() => {
    const element = box.current;
    if (!ready || !element || points.length === 0) return;
    const map = L.map(element, { zoomControl: true, attributionControl: Boolean(tiles) });
    // The tile provider's credit only, without Leaflet's flag.
    map.attributionControl?.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
    if (tiles) L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: 19 }).addTo(map);
    const bounds = L.latLngBounds([]);
    for (const p of points) {
      const at = L.latLng(p.latitude, p.longitude);
      bounds.extend(at);
      L.circleMarker(at, p.code === chosen?.code ? CHOSEN : STYLE)
        .addTo(map)
        .bindTooltip(p.address)
        .on('click', () => setFocused(p));
    }
    map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    return () => {
      map.remove();
    };
  }, [ready, points, chosen, tiles]);

  return (
    <div className="grid gap-3" data-testid="pickup-map">
      <div ref={box} className="h-80 w-full border border-line bg-paper-warm md:h-[26rem]" role="application" aria-label={m['delivery.pointsTitle']} />
      {focused && (
        <div className="flex items-start gap-3 border border-line p-4 text-sm" data-testid="map-point">
          <span className="min-w-0 flex-1">
            <PointDetails m={m} point={focused} />
          </span>
          <button type="button" onClick={() => onPick(focused)} className="btn-outline shrink-0">
            {m['delivery.pick']}
          </button>
        </div>
      )}
    </div>
  );
}
