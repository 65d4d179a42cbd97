// The order result pages (spec §2 order-success, order-failed): who may see them — the holder of the
// order's signed hash, or its customer when the hash is left out — and which of the two an order
// belongs on now. An order still waiting for its payment asks the provider first (the shopper has just
// come back from it), so the page shows the truth even when the notification is late.
import type { AstroGlobal } from 'astro';
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { pageCustomer } from '~/features/auth/auth.server.ts';
import { ProviderUnavailable, refreshOrderPayment } from '~/features/payments/payments.server.ts';
import { orderByCode, resultPath, verifyOrderHash, type OrderView } from '../orders/orders.server.ts';
import { mayShip, ORDER_CODE } from '../orders/orders.ts';

export type ResultState = 'paid' | 'waiting' | 'failed';

export interface OrderResult {
  order: OrderView;
  state: ResultState;
  /** Why it failed: a payment's reason (insufficient_funds, …) or the order's (payment_timeout). */
  reason: string | null;
  /** The provider's page while the payment is open. */
  paymentUrl: string | null;
  /** The visitor is this order's customer (links to the account instead of an offer to register). */
  own: boolean;
}

function stateOf(order: OrderView): ResultState {
  // Paid, or to be paid at the door (issue 55): the order is on its way to the buyer.
  if (mayShip(order.payment_status) && order.status !== 'cancelled') return 'paid';
  // Paid and then cancelled (its money refunded, or due): the order's page says so, not "payment failed".
  if (order.status === 'cancelled') return order.payment_status === 'unpaid' ? 'failed' : 'paid';
  // Returned by the carrier and refunded: the same page follows the parcel to its end.
  if (order.status === 'returned') return 'paid';
  return 'waiting';
}

export async function resolveOrderResult(astro: AstroGlobal, route: 'success' | 'failed'): Promise<OrderResult | Response> {
  const code = astro.params['code'] ?? '';
  const hash = astro.params['hash'] ?? '';
  let order = ORDER_CODE.test(code) ? await orderByCode(code) : null;
  if (!order) return astro.redirect('/404', 302);
  const auth = await pageCustomer(astro.cookies);
  const own = auth !== null && order.customer_id === auth.customer.id;
  if (!(hash ? await verifyOrderHash(code, hash) : own)) return astro.redirect('/404', 302);

  if (stateOf(order) === 'waiting') {
    try {
      await refreshOrderPayment(order.id);
    } catch (error) {
      // The provider cannot be asked now: the page says the payment is being checked.
      if (!(error instanceof ProviderUnavailable)) throw error;
    }
    order = (await orderByCode(code)) ?? order;
  }
  const state = stateOf(order);
  const wanted = state === 'failed' ? 'failed' : 'success';
  if (wanted !== route) return astro.redirect(await resultPath(code, wanted), 302);

  const db = await getDb();
  const [payment] = await selectRows<{ status: string; confirmation_url: string | null; reason: string | null }>(
    db,
    sql`SELECT status, confirmation_url, payload->>'reason' AS reason FROM payments WHERE order_id = ${order.id} ORDER BY id DESC LIMIT 1`,
  );
  const cancelNote = [...order.history].reverse().find((h) => h.status === 'cancelled')?.note ?? null;
  return {
    order,
    state,
    reason: state === 'failed' ? (payment?.reason ?? cancelNote) : null,
    paymentUrl: state === 'waiting' && payment?.status === 'pending' ? payment.confirmation_url : null,
    own,
  };
}
