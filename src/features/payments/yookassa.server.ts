// The YooKassa adapter (DESIGN §6), written against its API v3: a payment is created with an
// Idempotence-Key (the provider keeps it 24 hours, so a retry after a timeout is the same payment),
// confirmed by redirect, and read back by id whenever the shop needs its state — notifications carry no
// signature, so they only say "look again". Each payment carries its 54-FZ receipt.
import { z } from '~/lib/zod.ts';
import { env } from '~/lib/env.ts';
import { logger } from '~/lib/log.ts';
import { metrics } from '~/lib/metrics.ts';
import type { CreatePayment, OnlineMethod, PaymentProvider, ProviderPayment, ReceiptMode } from './provider.server.ts';
import type { ReceiptLine } from './receipt.ts';
import { ProviderUnavailable } from './provider.server.ts';

const amountSchema = z.object({ value: z.string().regex(/^\d+(\.\d{1,2})?$/), currency: z.string() });

const paymentSchema = z.object({
  id: z.string().min(1).max(100),
  status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']),
  amount: amountSchema,
  confirmation: z.object({ type: z.string(), confirmation_url: z.string().optional() }).optional(),
  cancellation_details: z.object({ party: z.string().optional(), reason: z.string().optional() }).optional(),
});

/** '1234.50' ↔ 123450 kopecks; strings, as the API writes money. */
export function toKopecks(value: string): number {
  const [whole = '0', fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}
export function toValue(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}

function view(payment: z.output<typeof paymentSchema>): ProviderPayment {
  // capture: true is sent, so waiting_for_capture does not happen; were it to, the money is not taken yet.
  const status = payment.status === 'succeeded' ? 'succeeded' : payment.status === 'canceled' ? 'canceled' : 'pending';
  return {
    ref: payment.id,
    status,
    amount: payment.amount.currency === 'RUB' ? toKopecks(payment.amount.value) : -1,
    confirmationUrl: status === 'pending' ? (payment.confirmation?.confirmation_url ?? null) : null,
    reason: payment.cancellation_details?.reason ?? null,
  };
}

/**
 * A receipt line as YooKassa takes it. A marked unit (FFD 1.2) is a piece of its own with its code as
 * GS1.M — the code's bytes, separators included, in base64 — and mark_mode 0, as its docs ask; a prepaid
 * line carries no code (the unit is not picked yet) and says it is goods, not marked goods.
 */
export function receiptItem(line: ReceiptLine, mode: ReceiptMode, vatCode: number) {
  const marked = line.subject === 'marked' && line.mark !== undefined && mode === 'full_payment';
  return {
    description: line.description,
    quantity: line.quantity.toFixed(2),
    amount: { value: toValue(line.unit), currency: 'RUB' },
    vat_code: vatCode,
    payment_subject: marked ? 'marked' : line.subject === 'marked' ? 'commodity' : line.subject,
    payment_mode: mode,
    ...(marked ? { measure: 'piece', mark_mode: '0', mark_code_info: { gs_1m: Buffer.from(line.mark ?? '', 'utf8').toString('base64') } } : {}),
  };
}

/** The 54-FZ receipt as YooKassa takes it, for a payment or its refund. */
function receipt(customer: { email: string; phone: string }, lines: ReceiptLine[], mode: ReceiptMode = 'full_payment') {
  const config = env();
  return {
    customer: { email: customer.email, phone: customer.phone.replace(/\D/g, '') },
    ...(config.YOOKASSA_TAX_SYSTEM_CODE ? { tax_system_code: config.YOOKASSA_TAX_SYSTEM_CODE } : {}),
    items: lines.map((line) => receiptItem(line, mode, config.YOOKASSA_VAT_CODE)),
  };
}

const receiptAnswer = z.object({ id: z.string().min(1).max(100), status: z.enum(['pending', 'succeeded', 'canceled']) });

const ATTEMPTS = 3;

/** One call to the API: retried with the same Idempotence-Key on a timeout, a 5xx or a 429 (as its docs ask). */
async function call(path: string, init: { method: 'GET' | 'POST'; body?: unknown; idempotenceKey?: string }): Promise<unknown> {
  const config = env();
  const auth = Buffer.from(`${config.YOOKASSA_SHOP_ID ?? ''}:${config.YOOKASSA_SECRET_KEY ?? ''}`).toString('base64');
  const url = `${config.YOOKASSA_API_URL.replace(/\/+$/, '')}${path}`;
  let last = 'no answer';
  // The metrics' operation: the path's kind, never an id (payments, payment, refunds).
  const operation = path === '/payments' ? 'create' : path === '/refunds' ? 'refund' : path === '/receipts' ? 'receipt' : 'fetch';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) metrics().paymentRetries.inc({ provider: 'yookassa', operation });
    try {
      const res = await fetch(url, {
        method: init.method,
        headers: {
          authorization: `Basic ${auth}`,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(init.idempotenceKey ? { 'idempotence-key': init.idempotenceKey } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        signal: AbortSignal.timeout(10_000),
      });
      if (res.status === 404) return null;
      if (res.ok) return (await res.json()) as unknown;
      last = `HTTP ${res.status}`;
      // A 4xx other than 429 will not change on a retry.
      if (res.status < 500 && res.status !== 429) break;
    } catch (error) {
      last = error instanceof Error ? error.name : 'error';
    }
    if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, 200 * attempt));
  }
  logger.warn({ provider: 'yookassa', path: path.replace(/^(\/\w+)\/[\w-]+$/, '$1/{id}'), reason: last }, 'payment provider call failed');
  metrics().paymentErrors.inc({ provider: 'yookassa', operation });
  throw new ProviderUnavailable(last);
}

/** YooKassa's payment_method_data.type of each way to pay online (SberPay's is `sberbank`). */
const METHOD_TYPES: Record<OnlineMethod, string> = { card: 'bank_card', sbp: 'sbp', sber_pay: 'sberbank' };

export const yookassaProvider: PaymentProvider = {
  name: 'yookassa',
  async create(request: CreatePayment) {
    const config = env();
    const body = {
      receipt: receipt(request.customer, request.receipt, request.receiptMode),
      amount: { value: toValue(request.amount), currency: 'RUB' },
      capture: true,
      // SberPay on a phone opens the bank's app (its return_url at most 255 characters); everywhere else YooKassa's page.
      confirmation: {
        type: request.method === 'sber_pay' && request.device === 'mobile' ? 'mobile_application' : 'redirect',
        return_url: new URL(request.returnPath, config.SITE_URL).href,
      },
      description: request.description.slice(0, 128),
      metadata: { order_code: request.orderCode },
      payment_method_data: { type: METHOD_TYPES[request.method] },
    };
    const answer = paymentSchema.safeParse(await call('/payments', { method: 'POST', body, idempotenceKey: request.idempotenceKey }));
    if (!answer.success) throw new ProviderUnavailable('unexpected answer');
    return view(answer.data);
  },
  async refund({ ref, amount, idempotenceKey, receipt: lines, customer, receiptMode }) {
    const answer = z.object({ id: z.string(), status: z.enum(['pending', 'succeeded', 'canceled']) }).safeParse(
      await call('/refunds', {
        method: 'POST',
        body: { payment_id: ref, amount: { value: toValue(amount), currency: 'RUB' }, receipt: receipt(customer, lines, receiptMode) },
        idempotenceKey,
      }),
    );
    if (!answer.success || answer.data.status === 'canceled') throw new ProviderUnavailable('refund refused');
    return { ref: answer.data.id };
  },
  async settle(request) {
    const body = {
      type: 'payment',
      payment_id: request.paymentRef,
      send: true,
      ...receipt(request.customer, request.lines),
      settlements: [{ type: 'prepayment', amount: { value: toValue(request.amount), currency: 'RUB' } }],
    };
    const answer = receiptAnswer.safeParse(await call('/receipts', { method: 'POST', body, idempotenceKey: request.idempotenceKey }));
    if (!answer.success) throw new ProviderUnavailable('unexpected answer');
    return { ref: answer.data.id, status: answer.data.status };
  },
  async receiptStatus(ref: string) {
    if (!/^[\w-]{1,100}$/.test(ref)) return null;
    const raw = await call(`/receipts/${ref}`, { method: 'GET' });
    if (raw === null) return null;
    const answer = receiptAnswer.safeParse(raw);
    if (!answer.success) throw new ProviderUnavailable('unexpected answer');
    return answer.data.status;
  },
  async fetch(ref: string) {
    if (!/^[\w-]{1,100}$/.test(ref)) return null;
    const raw = await call(`/payments/${ref}`, { method: 'GET' });
    if (raw === null) return null;
    const answer = paymentSchema.safeParse(raw);
    if (!answer.success) throw new ProviderUnavailable('unexpected answer');
    return view(answer.data);
  },
};
