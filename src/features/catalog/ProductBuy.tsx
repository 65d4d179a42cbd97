// The product page's buy box: sizes from the variants with availability (spec §3 variant), add to the
// cart store with the line limit of spec §5, and the wishlist heart.
import { useClientStore, NONE } from '~/lib/client-store.ts';
import { useEffect, useState } from 'react';
import { Icon } from '~/components/ui/Icon.tsx';
import { showToast } from '~/components/ui/toast.store.ts';
import { pushEcommerce } from '~/features/analytics/analytics.client.ts';
import { addToCart } from '~/features/cart/cart.store.ts';
import { $wishlistBusy, $wishlistIds, toggleWishlist } from '~/features/wishlist/wishlist.store.ts';
import type { ProductVariant } from './product.ts';
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
    <div className="space-y-5">
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
            <button
              key={v.code}
              type="button"
              role="radio"
              aria-checked={v.code === code}
              disabled={!v.available}
              title={v.available ? (v.left ? withN(labels.left, v.left) : labels.inStock) : labels.soldOut}
              onClick={() => {
                setCode(v.code);
                setError('');
              }}
              className={`min-w-12 border px-3 py-2.5 text-sm transition-colors ${
                v.code === code
                  ? 'border-ink bg-ink text-white'
                  : v.available
                    ? 'cursor-pointer border-line hover:border-ink'
                    : 'cursor-not-allowed border-line text-ink-muted line-through'
              }`}
            >
              {v.label}
            </button>
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
        <button type="button" onClick={() => void add()} disabled={available.length === 0} className="btn-primary h-13 flex-1">
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
    </div>
  );
}
