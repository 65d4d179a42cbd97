// After a paid order: the ordered sizes leave a guest's cart in this browser (a customer's left the
// server cart when the payment went through), the purchase goes to the analytics data layer once, and
// the shopper is offered the account (a guest) or the order's page (a customer).
import { useEffect } from 'react';
import { pushEcommerce, type EcommerceProduct } from '~/features/analytics/analytics.client.ts';
import { initSession } from '~/features/auth/auth.store.ts';
import { guestItems, saveGuestLines } from '~/features/cart/cart.store.ts';
import { openAuth } from '~/features/frame/frame.store.ts';

interface Props {
  code: string;
  products: (EcommerceProduct & { code: string })[];
  /** What the order cost (kopecks): the purchase's revenue. */
  total: number;
  /** Whether this is the visit right after paying: only then is the purchase reported and the cart tidied. */
  report: boolean;
  own: boolean;
  m: Record<'register' | 'registerText' | 'toOrder' | 'continue', string>;
}

const REPORTED = 'reported-orders';

export default function OrderPlaced({ code, products, total, report, own, m }: Props) {
  useEffect(() => {
    initSession();
    if (!report) return;
    const ordered = new Set(products.map((p) => p.code));
    const left = guestItems().filter((l) => !(l.is_selected !== false && l.variant_code && ordered.has(l.variant_code)));
    if (left.length !== guestItems().length) saveGuestLines(left);
    try {
      // A reload of this page is not a second purchase.
      const reported: unknown = JSON.parse(sessionStorage.getItem(REPORTED) ?? '[]');
      const list = Array.isArray(reported) ? reported.filter((x): x is string => typeof x === 'string') : [];
      if (!list.includes(code)) {
        pushEcommerce(
          'purchase',
          products.map(({ code: _code, ...p }) => p),
          code,
          total,
        );
        sessionStorage.setItem(REPORTED, JSON.stringify([...list, code].slice(-20)));
      }
    } catch {
      // Storage blocked: the event is still better sent once per page view than never.
    }
  }, [code, products, total, report]);

  return (
    <div className="mt-6 grid gap-4">
      {!own && (
        <div className="border border-line bg-paper-warm p-5 text-sm">
          <p>{m.registerText}</p>
          <button type="button" onClick={() => openAuth('register')} className="btn-primary mt-4">
            {m.register}
          </button>
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        {own && (
          <a href={`/dashboard/order/${code}`} className="btn-primary">
            {m.toOrder}
          </a>
        )}
        <a href="/brands" className="btn-outline">
          {m.continue}
        </a>
      </div>
    </div>
  );
}
