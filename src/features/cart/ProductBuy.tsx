// The product page's buy box: sizes from the variants with availability (spec §3 variant), add to the
// cart store with the line limit of spec §5, and the wishlist heart.
import { useClientStore, NONE } from '~/lib/client-store.ts';
import { useEffect, useRef, useState } from 'react';
import { Icon } from '~/components/ui/Icon.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { pushEcommerce } from '~/features/analytics/analytics.client.ts';
import { addToCart } from '~/features/cart/cart.store.ts';
import { $wishlistBusy, $wishlistIds, toggleWishlist } from '~/features/wishlist/wishlist.store.ts';
import type { ProductVariant } from '../catalog/catalog.product.ts';
import { useIslandMark } from '~/lib/islands.ts';

export interface ProductBuyLabels {
  size: string;
  sizeChart: string;
  /** With {n}. */
  left: string;
  leftPieces: string;
  inStock: string;
  soldOut: string;
  chooseSize: string;
  addToCart: string;
  added: string;
  wishlist: string;
}

export interface ProductBuyProps {
  product: { id: number; name: string; brand: string; price: number; category: string };
  variants: ProductVariant[];
  sizeChartUrl: string;
  labels: ProductBuyLabels;
}

export default function ProductBuy({ product, variants, sizeChartUrl, labels }: ProductBuyProps) {
  useIslandMark('buy');
  // The product view, once per page (the data layer's detail action).
  useEffect(() => pushEcommerce('detail', [product]), [product]);
  const wishlisted = useClientStore($wishlistIds, NONE).includes(product.id);
  const wishlistBusy = useClientStore($wishlistBusy, NONE).includes(product.id);
  const withN = (text: string, n: number) => text.replace('{n}', String(n));
  const available = variants.filter((v) => v.available);
  // A one-size product needs no choice.
  const [code, setCode] = useState<string | null>(variants.length === 1 && available.length === 1 ? (available[0]?.code ?? null) : null);
  const [error, setError] = useState('');
  const chosen = variants.find((v) => v.code === code);
  const form = useRef<HTMLFormElement | null>(null);
  // A size tapped before hydration is checked in the page already: the island takes it over.
  useEffect(() => {
    const picked = form.current?.querySelector<HTMLInputElement>('input[name="size"]:checked')?.value;
    if (picked) setCode(picked);
  }, []);

  const add = async () => {
    if (!chosen) {
      setError(labels.chooseSize);
      return;
    }
    const result = await addToCart({ id: product.id, variant_code: chosen.code, quantity: chosen.min_item, max_item: chosen.max_item });
    if (!result.ok) {
      showToast(result.message, 'error');
      return;
    }
    showToast(labels.added, 'success');
    pushEcommerce('add', [{ ...product, variant: chosen.label, quantity: chosen.min_item }]);
    document.dispatchEvent(new CustomEvent('cart:add', { detail: result.line }));
  };

  return (
    // A real form: the sizes are radios that answer a tap before the island has hydrated (the effect above
    // picks up what was chosen), and the button's tap is held until then (client:eager, data-hold).
    <form
      ref={form}
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        void add();
      }}
    >
      <fieldset>
        <div className="flex items-baseline justify-between">
          <legend className="text-sm font-700">
            {labels.size}
            {chosen ? `: ${chosen.label}` : ''}
          </legend>
          <a href={sizeChartUrl} className="text-sm underline underline-offset-4 link-quiet">
            {labels.sizeChart}
          </a>
        </div>
        <div role="radiogroup" aria-label={labels.size} className="mt-3 flex flex-wrap gap-2">
          {variants.map((v) => (
            <label key={v.code} title={v.available ? (v.left ? withN(labels.left, v.left) : labels.inStock) : labels.soldOut} className="relative">
              <input
                type="radio"
                name="size"
                value={v.code}
                checked={v.code === code}
                disabled={!v.available}
                onChange={() => {
                  setCode(v.code);
                  setError('');
                }}
                className="peer absolute inset-0 m-0 h-full w-full cursor-pointer appearance-none opacity-0 disabled:cursor-not-allowed"
              />
              <span className="block min-w-12 border border-line px-3 py-2.5 text-center text-sm transition-colors peer-hover:border-ink peer-checked:border-ink peer-checked:bg-ink peer-checked:text-white peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-ink peer-disabled:border-line peer-disabled:text-ink-muted peer-disabled:line-through">
                {v.label}
              </span>
            </label>
          ))}
        </div>
        {chosen?.left && <p className="mt-2 text-sm text-warning">{withN(labels.leftPieces, chosen.left)}</p>}
        {error && (
          <p role="alert" className="mt-2 text-sm text-danger">
            {error}
          </p>
        )}
      </fieldset>
      <div className="flex gap-2">
        <button type="submit" data-hold disabled={available.length === 0} className="btn-primary h-13 flex-1">
          <Icon name="cart" size={20} /> {available.length === 0 ? labels.soldOut : labels.addToCart}
        </button>
        <button
          type="button"
          aria-label={labels.wishlist}
          title={labels.wishlist}
          aria-pressed={wishlisted}
          aria-busy={wishlistBusy}
          onClick={() => void toggleWishlist(product.id)}
          className="wishlist-heart grid h-13 w-13 cursor-pointer place-items-center border border-ink hover:bg-ink hover:text-white"
        >
          <Icon name="heart" size={22} />
        </button>
      </div>
    </form>
  );
}
