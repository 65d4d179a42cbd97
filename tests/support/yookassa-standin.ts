// A local stand-in for YooKassa's API v3, answering as its documentation describes: Basic auth with the
// shop id and secret key, POST /v3/payments with a required Idempotence-Key (the same key answers the
// same payment), a receipt whose lines must add up to the amount, GET /v3/payments/{id}, error objects
// { type: 'error', code, description }. Tests settle payments and make it fail on purpose.
// Receipts (54-FZ, FFD 1.2) as YooKassa's "Чеки" API takes them: POST /v3/receipts for a prepayment's
// settlement (type payment, the payment's id, send true, settlements that add up to the items), GET
// /v3/receipts/{id}; a marked item must be a piece of quantity 1 in full payment with mark_mode 0 and its
// code as GS1.M in base64; a prepayment's item may not carry a code. Refunds may be partial, never more
// than was paid in all.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface StandinPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  description?: string;
  metadata?: Record<string, string>;
  confirmation?: { type: 'redirect' | 'mobile_application'; confirmation_url: string };
  payment_method?: { type: string; id: string; saved: boolean };
  cancellation_details?: { party: string; reason: string };
  created_at: string;
  test: boolean;
}

export interface ReceiptItem {
  description: string;
  quantity: string;
  amount: { value: string; currency: string };
  vat_code: number;
  payment_subject: string;
  payment_mode: string;
  measure?: string;
  mark_mode?: string;
  mark_code_info?: { gs_1m?: string };
}

export interface ReceiptRequest {
  key: string;
  body: {
    type: string;
    payment_id: string;
    send: boolean;
    customer: { email?: string; phone?: string };
    items: ReceiptItem[];
    settlements: { type: string; amount: { value: string; currency: string } }[];
  };
}

/** The code a marked item carries (its GS1.M base64 read back), or null. */
export const itemCode = (item: ReceiptItem): string | null =>
  item.mark_code_info?.gs_1m ? Buffer.from(item.mark_code_info.gs_1m, 'base64').toString('utf8') : null;

const SUBJECTS = ['commodity', 'marked', 'service', 'payment', 'excise', 'job', 'another'];

/** Why YooKassa would refuse a receipt's item, or null. */
function itemProblem(item: ReceiptItem): string | null {
  if (!/^\d+\.\d{2}$/.test(item.quantity ?? '') || !/^\d+\.\d{2}$/.test(item.amount?.value ?? '')) return 'items.quantity or amount';
  if (!['full_prepayment', 'partial_prepayment', 'advance', 'full_payment', 'partial_payment', 'credit', 'credit_payment'].includes(item.payment_mode))
    return 'items.payment_mode';
  if (!SUBJECTS.includes(item.payment_subject)) return 'items.payment_subject';
  if (!item.description || item.description.length > 128) return 'items.description';
  const code = itemCode(item);
  if (item.payment_subject === 'marked') {
    if (item.payment_mode !== 'full_payment') return 'items.payment_mode (a marked item is sold in full)';
    if (item.measure !== 'piece' || item.mark_mode !== '0' || item.quantity !== '1.00') return 'items.measure, mark_mode or quantity';
    // eslint-disable-next-line no-control-regex -- GS (ASCII 29) separates the code's fields
    if (!code || !/^01\d{14}21[\x21-\x7a]{13}\x1d91[\x21-\x7a]{4}\x1d92[\x21-\x7a]{44}$/.test(code)) return 'items.mark_code_info';
  } else if (item.mark_code_info || item.mark_mode) return 'items.mark_code_info (only for marked items)';
  return null;
}

export interface CreateRequest {
  key: string;
  body: {
    amount: { value: string; currency: string };
    capture: boolean;
    confirmation: { type: string; return_url: string };
    payment_method_data?: { type: string };
    metadata?: Record<string, string>;
    receipt: { customer: { email?: string; phone?: string }; items: ReceiptItem[] };
  };
}

export interface RefundRequest {
  key: string;
  body: { payment_id: string; amount: { value: string; currency: string }; receipt?: { items: ReceiptItem[] } };
}

export interface Standin {
  url: string;
  payments: Map<string, StandinPayment>;
  /** Every refund request that created a refund, with its Idempotence-Key. */
  refunds: RefundRequest[];
  /** Every create request, in order, with its Idempotence-Key. */
  creates: CreateRequest[];
  /** Every receipt request that made a receipt, with its key; `receiptCalls` counts every POST, repeated keys too. */
  receipts: ReceiptRequest[];
  receiptCalls(): number;
  /** The status new receipts take (pending by default, as a register answers first). */
  receiptStatus(status: 'pending' | 'succeeded' | 'canceled'): void;
  /** The id of the receipt made with this Idempotence-Key. */
  receiptId(key: string): string;
  /** Registers a pending receipt, as the register does a moment later. */
  register(id: string, status?: 'succeeded' | 'canceled'): void;
  settle(id: string, status: 'succeeded' | 'canceled', reason?: string): void;
  /** The next `n` calls of any kind answer 500, as the API may. */
  failNext(n: number): void;
  /** While on, refunds are refused with 403 forbidden, as for a shop whose refunds are not allowed. */
  refuseRefunds(on: boolean): void;
  close(): Promise<void>;
}

const kopecks = (value: string) => Math.round(Number(value) * 100);

export async function startYookassaStandin(shopId: string, secretKey: string): Promise<Standin> {
  const payments = new Map<string, StandinPayment>();
  const byKey = new Map<string, string>();
  const creates: CreateRequest[] = [];
  const refunds: RefundRequest[] = [];
  const refundByKey = new Map<string, unknown>();
  const receipts: ReceiptRequest[] = [];
  const receiptById = new Map<string, { id: string; status: string } & Record<string, unknown>>();
  const receiptByKey = new Map<string, string>();
  let receiptPosts = 0;
  let newReceiptStatus = 'pending';
  const refunded = new Map<string, number>();
  let failures = 0;
  let refusingRefunds = false;
  const expectedAuth = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: string, description: string, parameter?: string) =>
    send(res, status, { type: 'error', id: randomUUID(), code, description, ...(parameter ? { parameter } : {}) });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failures > 0) {
        failures--;
        return error(res, 500, 'internal_server_error', 'Internal server error');
      }
      if (req.headers.authorization !== expectedAuth) return error(res, 401, 'invalid_credentials', 'Login or password are incorrect');
      const path = (req.url ?? '').replace(/\?.*$/, '');
      if (req.method === 'POST' && path === '/v3/payments') {
        const key = req.headers['idempotence-key'];
        if (typeof key !== 'string' || key.length === 0 || key.length > 64)
          return error(res, 400, 'invalid_request', 'Idempotence key is missing', 'Idempotence-Key');
        const known = byKey.get(key);
        if (known) return send(res, 200, payments.get(known));
        let body: CreateRequest['body'];
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as CreateRequest['body'];
        } catch {
          return error(res, 400, 'invalid_request', 'Invalid JSON');
        }
        creates.push({ key, body });
        if (!/^\d+\.\d{2}$/.test(body.amount?.value ?? '') || body.amount.currency !== 'RUB')
          return error(res, 400, 'invalid_request', 'Invalid amount', 'amount');
        // The methods the shop uses, by YooKassa's type names (SberPay is `sberbank`), and their confirmations:
        // redirect for any, mobile_application (the bank's app on a phone) for SberPay and SBP.
        const method = body.payment_method_data?.type ?? 'bank_card';
        if (!['bank_card', 'sbp', 'sberbank'].includes(method)) return error(res, 400, 'invalid_request', 'Unknown payment method', 'payment_method_data.type');
        const confirmation = body.confirmation?.type;
        if ((confirmation !== 'redirect' && confirmation !== 'mobile_application') || !body.confirmation.return_url)
          return error(res, 400, 'invalid_request', 'Redirect needs return_url', 'confirmation');
        if (confirmation === 'mobile_application' && method === 'bank_card')
          return error(res, 400, 'invalid_request', 'mobile_application is not available for bank_card', 'confirmation.type');
        if (method === 'sberbank' && body.confirmation.return_url.length > 255)
          return error(res, 400, 'invalid_request', 'return_url is longer than 255 characters', 'confirmation.return_url');
        const items = body.receipt?.items ?? [];
        if (items.length === 0 || !(body.receipt.customer.email || body.receipt.customer.phone))
          return error(res, 400, 'invalid_request', 'Receipt is required', 'receipt');
        const badItem = items.map(itemProblem).find((p) => p !== null);
        if (badItem) return error(res, 400, 'invalid_request', `Invalid receipt: ${badItem}`, 'receipt');
        const sum = items.reduce((s, item) => s + kopecks(item.amount.value) * Number(item.quantity), 0);
        if (sum !== kopecks(body.amount.value)) return error(res, 400, 'invalid_request', 'Receipt items sum differs from the payment amount', 'receipt');
        const id = randomUUID();
        const payment: StandinPayment = {
          id,
          status: 'pending',
          paid: false,
          amount: body.amount,
          ...(body.metadata ? { metadata: body.metadata } : {}),
          confirmation:
            confirmation === 'mobile_application'
              ? { type: 'mobile_application', confirmation_url: `sberpay://invoicing/v2?bankInvoiceId=${id}&operationType=Web2App` }
              : { type: 'redirect', confirmation_url: `${url}/checkout/payments/v2/contract?orderId=${id}` },
          payment_method: { type: method, id, saved: false },
          created_at: new Date().toISOString(),
          test: true,
        };
        payments.set(id, payment);
        byKey.set(key, id);
        return send(res, 200, payment);
      }
      if (req.method === 'POST' && path === '/v3/refunds') {
        const key = req.headers['idempotence-key'];
        if (typeof key !== 'string' || key.length === 0) return error(res, 400, 'invalid_request', 'Idempotence key is missing', 'Idempotence-Key');
        const known = refundByKey.get(key);
        if (known) return send(res, 200, known);
        if (refusingRefunds) return error(res, 403, 'forbidden', 'Refunds are not allowed for this shop');
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RefundRequest['body'];
        const payment = payments.get(body.payment_id);
        if (!payment) return error(res, 404, 'not_found', 'Payment not found', 'payment_id');
        if (payment.status !== 'succeeded') return error(res, 400, 'invalid_request', 'Payment is not succeeded', 'payment_id');
        const before = refunded.get(payment.id) ?? 0;
        if (before + kopecks(body.amount.value) > kopecks(payment.amount.value))
          return error(res, 400, 'invalid_request', 'Refund exceeds the payment', 'amount');
        const items = body.receipt?.items ?? [];
        const bad = items.map(itemProblem).find((p) => p !== null);
        if (bad) return error(res, 400, 'invalid_request', `Invalid receipt: ${bad}`, 'receipt');
        const sum = items.reduce((s, item) => s + kopecks(item.amount.value) * Number(item.quantity), 0);
        if (sum !== kopecks(body.amount.value)) return error(res, 400, 'invalid_request', 'Receipt items sum differs from the refund amount', 'receipt');
        refunds.push({ key, body });
        refunded.set(payment.id, before + kopecks(body.amount.value));
        const refund = { id: randomUUID(), payment_id: payment.id, status: 'succeeded', amount: body.amount, created_at: new Date().toISOString() };
        refundByKey.set(key, refund);
        return send(res, 200, refund);
      }
      if (req.method === 'POST' && path === '/v3/receipts') {
        receiptPosts++;
        const key = req.headers['idempotence-key'];
        if (typeof key !== 'string' || key.length === 0 || key.length > 64)
          return error(res, 400, 'invalid_request', 'Idempotence key is missing', 'Idempotence-Key');
        const known = receiptByKey.get(key);
        if (known) return send(res, 200, receiptById.get(known));
        let body: ReceiptRequest['body'];
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceiptRequest['body'];
        } catch {
          return error(res, 400, 'invalid_request', 'Invalid JSON');
        }
        if (body.type !== 'payment' && body.type !== 'refund') return error(res, 400, 'invalid_request', 'Unknown receipt type', 'type');
        if (body.send !== true) return error(res, 400, 'invalid_request', 'Only send: true is supported', 'send');
        const payment = payments.get(body.payment_id);
        if (!payment) return error(res, 400, 'invalid_request', 'Payment not found', 'payment_id');
        if (payment.status !== 'succeeded') return error(res, 400, 'invalid_request', 'Payment is not succeeded', 'payment_id');
        if (!(body.customer?.email || body.customer?.phone)) return error(res, 400, 'invalid_request', 'Customer contact is required', 'customer');
        const items = body.items ?? [];
        if (items.length === 0 || items.length > 100) return error(res, 400, 'invalid_request', 'From 1 to 100 items', 'items');
        const bad = items.map(itemProblem).find((p) => p !== null);
        if (bad) return error(res, 400, 'invalid_request', `Invalid receipt: ${bad}`, 'items');
        const settlements = body.settlements ?? [];
        if (settlements.length === 0 || settlements.some((x) => !['cashless', 'prepayment', 'postpayment', 'consideration'].includes(x.type)))
          return error(res, 400, 'invalid_request', 'Settlements are required', 'settlements');
        const sum = items.reduce((total, item) => total + kopecks(item.amount.value) * Number(item.quantity), 0);
        if (sum !== settlements.reduce((total, x) => total + kopecks(x.amount.value), 0))
          return error(res, 400, 'invalid_request', 'Receipt items sum differs from the settlements', 'settlements');
        receipts.push({ key, body });
        const id = randomUUID();
        const receipt = { id, type: body.type, payment_id: body.payment_id, status: newReceiptStatus, items, settlements };
        receiptById.set(id, receipt);
        receiptByKey.set(key, id);
        return send(res, 200, receipt);
      }
      const receiptMatch = /^\/v3\/receipts\/([\w-]+)$/.exec(path);
      if (req.method === 'GET' && receiptMatch) {
        const receipt = receiptById.get(receiptMatch[1] ?? '');
        return receipt ? send(res, 200, receipt) : error(res, 404, 'not_found', 'Receipt not found');
      }
      const match = /^\/v3\/payments\/([\w-]+)$/.exec(path);
      if (req.method === 'GET' && match) {
        const payment = payments.get(match[1] ?? '');
        return payment ? send(res, 200, payment) : error(res, 404, 'not_found', 'Payment not found');
      }
      return error(res, 404, 'not_found', 'Unknown path');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    payments,
    creates,
    refunds,
    settle(id, status, reason = 'insufficient_funds') {
      const payment = payments.get(id);
      if (!payment) throw new Error(`no payment ${id}`);
      payment.status = status;
      payment.paid = status === 'succeeded';
      delete payment.confirmation;
      if (status === 'canceled') payment.cancellation_details = { party: 'payment_network', reason };
    },
    failNext(n) {
      failures = n;
    },
    refuseRefunds(on) {
      refusingRefunds = on;
    },
    receipts,
    receiptCalls: () => receiptPosts,
    receiptStatus(status) {
      newReceiptStatus = status;
    },
    receiptId: (key) => receiptByKey.get(key) ?? '',
    register(id, status = 'succeeded') {
      const receipt = receiptById.get(id);
      if (!receipt) throw new Error(`no receipt ${id}`);
      receipt.status = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
