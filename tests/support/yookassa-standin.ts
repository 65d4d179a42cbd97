// A local stand-in for YooKassa's API v3, answering as its documentation describes: Basic auth with the
// shop id and secret key, POST /v3/payments with a required Idempotence-Key (the same key answers the
// same payment), a receipt whose lines must add up to the amount, GET /v3/payments/{id}, error objects
// { type: 'error', code, description }. Tests settle payments and make it fail on purpose.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export interface StandinPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  description?: string;
  metadata?: Record<string, string>;
  confirmation?: { type: 'redirect'; confirmation_url: string };
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
        if (body.confirmation?.type !== 'redirect' || !body.confirmation.return_url)
          return error(res, 400, 'invalid_request', 'Redirect needs return_url', 'confirmation');
        const items = body.receipt?.items ?? [];
        if (items.length === 0 || !(body.receipt.customer.email || body.receipt.customer.phone))
          return error(res, 400, 'invalid_request', 'Receipt is required', 'receipt');
        const sum = items.reduce((s, item) => s + kopecks(item.amount.value) * Number(item.quantity), 0);
        if (sum !== kopecks(body.amount.value)) return error(res, 400, 'invalid_request', 'Receipt items sum differs from the payment amount', 'receipt');
        const id = randomUUID();
        const payment: StandinPayment = {
          id,
          status: 'pending',
          paid: false,
          amount: body.amount,
          ...(body.metadata ? { metadata: body.metadata } : {}),
          confirmation: { type: 'redirect', confirmation_url: `${url}/checkout/payments/v2/contract?orderId=${id}` },
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
        if (kopecks(body.amount.value) > kopecks(payment.amount.value)) return error(res, 400, 'invalid_request', 'Refund exceeds the payment', 'amount');
        const items = body.receipt?.items ?? [];
        const sum = items.reduce((s, item) => s + kopecks(item.amount.value) * Number(item.quantity), 0);
        if (sum !== kopecks(body.amount.value)) return error(res, 400, 'invalid_request', 'Receipt items sum differs from the refund amount', 'receipt');
        refunds.push({ key, body });
        const refund = { id: randomUUID(), payment_id: payment.id, status: 'succeeded', amount: body.amount, created_at: new Date().toISOString() };
        refundByKey.set(key, refund);
        return send(res, 200, refund);
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
