// /cart (spec §2, §4): the lines with image, brand, name, size, price and old price, a quantity stepper
// bounded by the line's min and max, availability, selection, remove and clear; totals over the selected,
// available lines. A guest's lines are checked against the catalogue (validate-cart-items) on arrival; a
// customer's come from the server cart.
import { useClientStore, NONE } from '~/lib/client-store.ts';
import { useEffect, useMemo, useState } from 'react';
import { Icon } from '~/components/ui/Icon.tsx';
import { pushEcommerce, type EcommerceProduct } from '~/features/analytics/analytics.client.ts';
import { fill } from '~/lib/i18n/fill.ts';
import { formatPrice } from '~/lib/format.ts';
import { $session, initSession } from '~/features/auth/auth.store.ts';
import { clearCartCall, removeCartCall, updateCartCall, validateItemsCall } from '../cart/cart.client.ts';
import { $guestLines, $serverLines, cartError, followCart, saveGuestLines } from '../cart/cart.store.ts';
import { cartTotals, type CartLine } from '../cart/cart.ts';
import { SummaryRow } from '../cart/SummaryRow.tsx';
import { useIslandMark } from '~/lib/islands.ts';
import { summaryCall } from '~/features/checkout/checkout.client.ts';
import { PromoCodeField } from '~/features/promotions/PromoCodeField.tsx';
import { keepPromoCode, keptPromoCode } from '~/features/promotions/promotions.store.ts';
import type { PromoAnswer } from '~/features/promotions/promotions.ts';

export type CartMessages = Record<string, string>;

/** A line as the analytics data layer names a product. */
export function asProduct(line: CartLine): EcommerceProduct {
  return { id: line.id, name: line.name, brand: line.brand, price: line.price, variant: line.variant, quantity: line.quantity };
}

function Stepper({ line, busy, onChange, m }: { line: CartLine; busy: boolean; onChange: (q: number) => void; m: CartMessages }) {
  const button = 'grid h-9 w-9 cursor-pointer place-items-center border border-line hover:border-ink disabled:cursor-not-allowed disabled:opacity-40';
  return (
    <div className="flex items-center" role="group" aria-label={fill(m['cart.quantityOf'] ?? '', { name: line.name })}>
      <button
        type="button"
        className={button}
        aria-label={m['cart.decrease']}
        disabled={busy || line.quantity <= line.min_item}
        onClick={() => onChange(line.quantity - 1)}
      >
        −
      </button>
      <output aria-live="polite" className="w-10 text-center text-sm font-600 tabular-nums">
        {line.quantity}
      </output>
      <button
        type="button"
        className={button}
        aria-label={m['cart.increase']}
        disabled={busy || line.quantity >= line.max_item}
        onClick={() => onChange(line.quantity + 1)}
      >
        +
      </button>
    </div>
  );
}

export default function CartPage({ m }: { m: CartMessages }) {
  useIslandMark('cart');
  const session = useClientStore($session, null);
  const server = useClientStore($serverLines, NONE);
  const guest = useClientStore($guestLines, NONE);
  const [guestView, setGuestView] = useState<CartLine[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    initSession();
    followCart();
    setReady(true);
  }, []);

  // A guest's lines are priced and bounded by the server whenever they change.
  useEffect(() => {
    if (!ready || session) return;
    if (guest.length === 0) {
      setGuestView([]);
      return;
    }
    // Only the newest lines' answer is drawn: a check of lines since removed or cleared, answered late,
    // would bring them back on the screen (seen when the server was slow: a cleared cart kept a line).
    let newest = true;
    validateItemsCall(guest.map((l) => ({ id: l.id, quantity: l.quantity, uid: l.uid, variant_code: l.variant_code, is_selected: l.is_selected ?? true })))
      .then(({ items }) => newest && setGuestView(items))
      .catch((error: unknown) => newest && cartError(error));
    return () => {
      newest = false;
    };
  }, [ready, session, guest]);

  const lines = session ? server : (guestView ?? []);
  const totals = useMemo(() => cartTotals(lines), [lines]);
  const loading = !ready || (!session && guestView === null && guest.length > 0);

  // A promo code (issue 56): checked by the checkout's summary for the lines chosen, carried to the checkout
  // while it applies. What the code takes off is shown here; delivery and its promotions are the checkout's.
  const [promoText, setPromoText] = useState('');
  const [promoCode, setPromoCode] = useState('');
  const [promo, setPromo] = useState<{ answer: PromoAnswer; off: number } | null>(null);
  useEffect(() => {
    const kept = keptPromoCode();
    if (!kept) return;
    setPromoText(kept);
    setPromoCode(kept);
  }, []);
  const chosen = useMemo(
    () => lines.filter((l) => l.is_selected && l.is_available).map((l) => ({ id: l.id, quantity: l.quantity, variant_code: l.variant_code })),
    [lines],
  );
  useEffect(() => {
    if (!promoCode || loading || chosen.length === 0) {
      setPromo(null);
      return;
    }
    let newest = true;
    summaryCall({ ...(session ? {} : { items: chosen }), delivery: { method: 'courier' }, use_bonus: 0, use_balance: 0, promo_code: promoCode })
      .then((s) => {
        if (!newest) return;
        setPromo({ answer: s.promo_code, off: s.promotions.reduce((sum, p) => sum + (p.code && p.class !== 'delivery' ? p.amount : 0), 0) });
        keepPromoCode(s.promo_code?.applied ? promoCode : '');
      })
      .catch((error: unknown) => newest && cartError(error));
    return () => {
      newest = false;
    };
  }, [promoCode, chosen, session, loading]);
  const codeOff = promo?.answer?.applied ? promo.off : 0;

  const change = async (line: CartLine, patch: { quantity?: number; is_selected?: boolean }) => {
    if (!session) {
      // Shown at once; the server's check of the changed lines follows.
      setGuestView((view) => view?.map((l) => (l.uid === line.uid ? { ...l, ...patch } : l)) ?? view);
      saveGuestLines(guest.map((g) => (g.uid === line.uid ? { ...g, ...patch } : g)));
      return;
    }
    setBusy(line.uid);
    try {
      const updated = await updateCartCall({ uid: line.uid, ...patch });
      $serverLines.set($serverLines.get().map((l) => (l.uid === updated.uid ? updated : l)));
    } catch (error) {
      cartError(error);
    } finally {
      setBusy(null);
    }
  };
  const remove = async (line: CartLine) => {
    pushEcommerce('remove', [asProduct(line)]);
    if (!session) {
      setGuestView((view) => view?.filter((l) => l.uid !== line.uid) ?? view);
      saveGuestLines(guest.filter((g) => g.uid !== line.uid));
      return;
    }
    setBusy(line.uid);
    try {
      $serverLines.set(await removeCartCall(line.uid));
    } catch (error) {
      cartError(error);
    } finally {
      setBusy(null);
    }
  };
  const clear = async () => {
    if (!confirm(m['cart.clearConfirm'])) return;
    pushEcommerce('remove', lines.map(asProduct));
    if (!session) {
      saveGuestLines([]);
      return;
    }
    try {
      $serverLines.set(await clearCartCall());
    } catch (error) {
      cartError(error);
    }
  };
  const allSelected = lines.length > 0 && lines.every((l) => l.is_selected);
  const selectAll = async () => {
    const next = !allSelected;
    if (!session) {
      setGuestView((view) => view?.map((l) => ({ ...l, is_selected: next })) ?? view);
      saveGuestLines(guest.map((g) => ({ ...g, is_selected: next })));
      return;
    }
    for (const line of lines) if (line.is_selected !== next) await change(line, { is_selected: next });
  };

  if (loading) return <p className="py-10 text-sm text-ink-muted">{m['cart.loading']}</p>;
  if (lines.length === 0)
    return (
      <div className="border border-dashed border-line px-6 py-12 text-center">
        <Icon name="cart" size={40} className="mx-auto text-ink-muted" />
        <p className="mt-4 font-display text-2xl font-500">{m['cart.empty']}</p>
        <p className="mt-2 text-sm text-ink-soft">{m['cart.emptyHint']}</p>
        <a href="/brands" className="btn-primary mt-6 inline-flex">
          {m['cart.toCatalog']}
        </a>
      </div>
    );

  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_340px]">
      <div>
        <div className="flex items-center justify-between border-b border-line pb-3 text-sm">
          <label className="flex cursor-pointer items-center gap-2">
            <input type="checkbox" checked={allSelected} onChange={() => void selectAll()} className="h-4 w-4 accent-ink" />
            {m['cart.selectAll']}
          </label>
          <button type="button" onClick={() => void clear()} className="cursor-pointer text-ink-soft underline underline-offset-4 hover:text-ink">
            {m['cart.clear']}
          </button>
        </div>
        <ul className="divide-y divide-line" aria-label={m['cart.title']}>
          {lines.map((line, k) => (
            <li key={line.uid} className="flex gap-3 py-4 sm:gap-4" data-line={line.variant_code}>
              <input
                type="checkbox"
                checked={line.is_selected}
                onChange={() => void change(line, { is_selected: !line.is_selected })}
                aria-label={fill(m['cart.select'] ?? '', { name: line.name })}
                className="mt-1 h-4 w-4 shrink-0 accent-ink"
              />
              <a href={line.url} className="block w-20 shrink-0 bg-paper-warm sm:w-24" tabIndex={-1} aria-hidden="true">
                {line.image && (
                  // The first lines are the page's largest paint: not lazy, or the browser waits for layout to ask for them.
                  <img src={line.image} alt="" width={96} height={128} loading={k < 4 ? 'eager' : 'lazy'} className="aspect-[3/4] h-auto w-full object-cover" />
                )}
              </a>
              <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:justify-between">
                <div className="min-w-0">
                  <p className="text-xs font-700 uppercase tracking-wide">{line.brand}</p>
                  <a href={line.url} className="block text-sm hover:text-accent">
                    {line.name}
                  </a>
                  <p className="mt-1 text-xs text-ink-soft">{fill(m['cart.size'] ?? '', { size: line.variant })}</p>
                  {!line.is_available && <p className="mt-1 text-xs font-600 text-danger">{m['cart.unavailableLine']}</p>}
                  <div className="mt-3 flex items-center gap-4">
                    <Stepper line={line} busy={busy === line.uid || !line.is_available} onChange={(q) => void change(line, { quantity: q })} m={m} />
                    <button
                      type="button"
                      onClick={() => void remove(line)}
                      className="cursor-pointer text-xs text-ink-soft underline underline-offset-4 hover:text-danger"
                    >
                      {m['cart.remove']}
                    </button>
                  </div>
                </div>
                <div className="shrink-0 text-left sm:text-right">
                  <p className="text-base font-700 tabular-nums">{formatPrice(line.price * line.quantity)}</p>
                  {line.price_old && line.price_old > line.price && (
                    <p className="text-xs text-ink-muted line-through tabular-nums">{formatPrice(line.price_old * line.quantity)}</p>
                  )}
                  {line.quantity > 1 && <p className="text-xs text-ink-muted">{fill(m['cart.each'] ?? '', { price: formatPrice(line.price) })}</p>}
                </div>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <aside className="h-fit border border-line p-5 lg:sticky lg:top-28" aria-label={m['cart.summary']}>
        <h2 className="font-display text-2xl font-500">{m['cart.summary']}</h2>
        <dl className="mt-4 space-y-2 text-sm">
          <SummaryRow label={fill(m['cart.items'] ?? '', { count: totals.selectedCount })} value={formatPrice(totals.total + totals.discount)} />
          {totals.discount > 0 && <SummaryRow label={m['cart.discount']} value={`−${formatPrice(totals.discount)}`} tone="text-accent" />}
          {codeOff > 0 && (
            <SummaryRow
              label={fill(m['cart.promoCode'] ?? '', { code: promoCode })}
              value={`−${formatPrice(codeOff)}`}
              tone="text-accent"
              testId="cart-promo"
            />
          )}
          <SummaryRow
            label={m['cart.total']}
            value={formatPrice(Math.max(0, totals.total - codeOff))}
            tone="border-t border-line pt-3 text-base font-700"
            testId="cart-total"
          />
        </dl>
        {totals.selectedCount > 0 && (
          <div className="mt-4">
            <PromoCodeField
              m={m}
              text={promoText}
              onText={setPromoText}
              answer={promo?.answer ?? null}
              onApply={() => setPromoCode(promoText.trim().toUpperCase())}
              onRemove={() => {
                setPromoCode('');
                setPromoText('');
                keepPromoCode('');
              }}
            />
          </div>
        )}
        {totals.selectedCount > 0 ? (
          <a href="/checkout" className="btn-primary mt-5 flex w-full justify-center" data-testid="to-checkout">
            {m['cart.checkout']}
          </a>
        ) : (
          <button type="button" disabled className="btn-primary mt-5 w-full opacity-60">
            {m['cart.checkout']}
          </button>
        )}
        <p className="mt-3 text-xs text-ink-muted">{totals.selectedCount > 0 ? m['cart.checkoutHint'] : m['checkout.empty']}</p>
      </aside>
    </div>
  );
}
