// The header search form with live suggestions (spec §2 "Search suggestions panel", §4, §7, §9):
// requested above two characters, debounced 500 ms, stale requests cancelled; submitting goes to the
// search route.
import { useClientStore, NONE } from '~/lib/client-store.ts';
import { useEffect, useRef, useState } from 'react';
import { Icon } from '~/components/ui/Icon.tsx';
import { formatPrice } from '~/lib/format.ts';
import { api } from '~/lib/api.client.ts';
import { $panel, $searchText, closePanels, openPanel } from '~/features/frame/frame.store.ts';
import { $wishlistBusy, $wishlistIds, toggleWishlist } from '~/features/wishlist/wishlist.store.ts';
import { searchUrl } from '~/features/catalog/catalog.ts';
import { isEmpty, SEARCH_DEBOUNCE_MS, shouldSuggest, suggestionLimit, type Suggestions } from './search.ts';

export interface SearchLabels {
  placeholder: string;
  submit: string;
  noMatch: string;
  noMatchHint: string;
  allResults: string;
  brand: string;
  wishlist: string;
}

/** `autoFocus`: the phone's box, in the search panel: a tap on the toggle shows it with the keyboard up, without script. */
export function SearchBox({ labels, id, autoFocus }: { labels: SearchLabels; id: string; autoFocus?: boolean }) {
  const text = useClientStore($searchText, '');
  const panel = useClientStore($panel, null);
  const wishlist = useClientStore($wishlistIds, NONE);
  const busy = useClientStore($wishlistBusy, NONE);
  const [result, setResult] = useState<Suggestions | null>(null);
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement | null>(null);

  // Text typed before the island hydrated is in the field already (hydration keeps it): the store takes it over.
  useEffect(() => {
    const typed = input.current?.value ?? '';
    if (!typed || typed === $searchText.get()) return;
    $searchText.set(typed);
    if (document.activeElement === input.current) openPanel('search');
  }, []);

  useEffect(() => {
    abort.current?.abort();
    if (!shouldSuggest(text)) {
      setResult(null);
      return;
    }
    // The header has a desktop and a phone search box sharing the text; only the visible one asks.
    if (!input.current?.offsetParent) return;
    const controller = new AbortController();
    abort.current = controller;
    const timer = setTimeout(async () => {
      try {
        // The most this width shows; fewer are shown when brands take room (spec §7).
        const limit = suggestionLimit(window.innerWidth, false);
        const data = await api<Suggestions>('/api/v1/ecommerce-core/search-suggestions', {
          method: 'POST',
          query: { search_key: text.trim(), limit },
          signal: controller.signal,
        });
        if (!controller.signal.aborted) setResult(data);
      } catch {
        // An aborted or failed request leaves the previous suggestions; the form still submits.
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  const open = panel === 'search' && shouldSuggest(text) && result !== null;
  const limit = result ? suggestionLimit(typeof window === 'undefined' ? 1440 : window.innerWidth, result.brands.data.length > 0) : 0;

  return (
    <form
      role="search"
      action="/product/search"
      className="relative w-full"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim()) window.location.href = searchUrl(text);
      }}
    >
      <label htmlFor={id} className="sr-only">
        {labels.placeholder}
      </label>
      <input
        id={id}
        ref={input}
        name="q"
        type="search"
        autoComplete="off"
        autoFocus={autoFocus}
        value={text}
        placeholder={labels.placeholder}
        onChange={(e) => {
          $searchText.set(e.target.value);
          if ($panel.get() !== 'search') openPanel('search');
        }}
        onFocus={() => shouldSuggest(text) && openPanel('search')}
        aria-controls={`${id}-suggestions`}
        aria-expanded={open}
        className="h-11 w-full border border-line bg-paper-warm pl-4 pr-12 text-sm outline-none focus:border-ink"
      />
      <button
        type="submit"
        aria-label={labels.submit}
        className="absolute right-0 top-0 grid h-11 w-11 cursor-pointer place-items-center text-ink-soft hover:text-ink"
      >
        <Icon name="search" size={20} />
      </button>
      {open && result && (
        <div
          id={`${id}-suggestions`}
          className="absolute left-0 right-0 top-full z-50 mt-1 max-h-[300px] overflow-y-auto border border-line bg-paper p-4 text-sm shadow-xl"
        >
          {isEmpty(result) ? (
            <div className="py-4 text-center">
              <p className="font-600">{labels.noMatch}</p>
              <p className="mt-1 text-ink-muted">{labels.noMatchHint}</p>
            </div>
          ) : (
            <>
              {result.categories.data.length > 0 && (
                <div className="flex flex-wrap gap-2">
                  {result.categories.data.map((c) => (
                    <a key={c.id} href={c.url} onClick={closePanels} className="border border-line px-3 py-1.5 hover:border-ink">
                      {c.name}
                    </a>
                  ))}
                </div>
              )}
              {result.brands.data.length > 0 && (
                <ul className="mt-3 space-y-1.5">
                  {result.brands.data.map((b) => (
                    <li key={b.id}>
                      <a href={b.url} onClick={closePanels} className="flex items-baseline gap-2 hover:text-accent">
                        <span className="font-600">{b.name}</span>
                        <span className="text-xs text-ink-muted">{labels.brand}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              )}
              {result.products.data.length > 0 && (
                <ul className="mt-3 grid grid-cols-2 gap-3 md:grid-cols-4">
                  {result.products.data.slice(0, limit).map((p) => (
                    <li key={p.id} className="relative min-w-0">
                      <button
                        type="button"
                        aria-label={labels.wishlist}
                        aria-pressed={wishlist.includes(p.id)}
                        aria-busy={busy.includes(p.id)}
                        onClick={() => void toggleWishlist(p.id)}
                        className="wishlist-heart absolute right-1 top-1 z-1 grid h-8 w-8 cursor-pointer place-items-center rounded-full bg-white/85 hover:text-accent"
                      >
                        <Icon name="heart" size={16} />
                      </button>
                      <a href={p.url} onClick={closePanels} className="block">
                        <img src={p.image} alt="" width={120} height={160} loading="lazy" className="aspect-[3/4] h-auto w-full bg-paper-warm object-cover" />
                        <span className="mt-1 block truncate text-xs font-700 uppercase">{p.brand}</span>
                        <span className="block truncate text-xs text-ink-soft">{p.name}</span>
                      </a>
                      <span className="text-xs font-700">{formatPrice(p.price)}</span>
                      {p.discount_percent > 0 && p.price_old && (
                        <>
                          {' '}
                          <s className="text-xs text-ink-muted">{formatPrice(p.price_old)}</s>{' '}
                          <span className="text-xs text-accent">-{p.discount_percent}%</span>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              )}
              {result.products.data.length > 0 && (
                <a href={searchUrl(text)} onClick={closePanels} className="btn-outline mt-4 w-full">
                  {labels.allResults}
                </a>
              )}
            </>
          )}
        </div>
      )}
    </form>
  );
}
