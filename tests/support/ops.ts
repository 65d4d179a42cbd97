// The managers' console in tests (issue 24): a browser-like visitor of /ops pages, the operator token's
// call, and an operator enrolled, set up and signed in with TOTP.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { base32Decode, hotp, totpStep } from '../../src/features/ops/totp.server.ts';
import type { TestServer } from './server.ts';

export const OPERATORS_API = '/api/v1/ecommerce-core/ops/operators';

export const operatorToken = (server: TestServer) => readFileSync(join(server.database.env['DATA_DIR'] as string, 'operator-token'), 'utf8').trim();

export const operatorCall = (server: TestServer, body?: unknown, token = operatorToken(server)) =>
  fetch(server.baseUrl + OPERATORS_API, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-operator-token': token, 'content-type': 'application/json', 'accept-language': 'ru' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** A browser-like visit: the cookies it was given, sent back on /ops. */
export class Visitor {
  cookies = new Map<string, string>();
  readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }
  async go(path: string, form?: Record<string, string>): Promise<{ status: number; html: string; headers: Headers }> {
    const res = await fetch(this.baseUrl + path, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = (pair ?? '').split('=');
      if (name) {
        if (value) this.cookies.set(name, value);
        else this.cookies.delete(name);
      }
    }
    return { status: res.status, html: await res.text(), headers: res.headers };
  }
  /** The form token of the page just shown. */
  static formToken(html: string): string {
    return /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  }
}

/**
 * The console's save of a product, as a manager sends it: the form as shown, with the price (roubles) and,
 * when `stockEach` is given, every size's stock set to it. The console answers a save with 303.
 */
export async function saveProduct(admin: Visitor, id: number, roubles: number, stockEach?: number): Promise<void> {
  const page = await admin.go(`/ops/products/${id}`);
  const stock = Object.fromEntries(
    [...page.html.matchAll(/name="(stock_\d+)" value="(\d+)"/g)].map((m) => [m[1] as string, stockEach === undefined ? (m[2] as string) : String(stockEach)]),
  );
  const saved = await admin.go(`/ops/products/${id}`, {
    _csrf: Visitor.formToken(page.html),
    action: 'save',
    price: String(roubles),
    price_old: '',
    visible: 'on',
    ...stock,
  });
  expect(saved.status, `the console saved product ${id}`).toBe(303);
}

export const codeAt = (secret: string, offsetSteps = 0) => hotp(base32Decode(secret), totpStep(Date.now()) + offsetSteps);

export async function enrol(server: TestServer, email: string, role: 'manager' | 'admin') {
  const res = await operatorCall(server, { action: 'add', email, role });
  expect(res.status).toBe(200);
  const { data } = (await res.json()) as { data: { setup_url: string; otpauth: string; operator: { role: string; totp_confirmed: boolean } } };
  return data;
}

/** An operator added, set up through the link and signed in (the next step's code): their visitor and secret. */
export async function signedInOperator(server: TestServer, email: string, role: 'manager' | 'admin') {
  return setUpAndSignIn(server.baseUrl, email, await enrol(server, email, role));
}

/** An enrolled operator's link used (password and the app's first code), then a sign-in with the next step's code. */
export async function setUpAndSignIn(baseUrl: string, email: string, enrolment: { setup_url: string; otpauth: string }) {
  const { setup_url: link, otpauth } = enrolment;
  const secret = new URL(otpauth).searchParams.get('secret') as string;
  const visitor = new Visitor(baseUrl);
  const path = new URL(link).pathname + new URL(link).search;
  const page = await visitor.go(path);
  const token = new URL(link).searchParams.get('token') as string;
  const password = 'зимний вечер у моря';
  await visitor.go('/ops/setup', { _csrf: Visitor.formToken(page.html), token, password, password_confirmation: password, code: codeAt(secret) });
  const form = await visitor.go('/ops/login');
  const signedIn = await visitor.go('/ops/login', { _csrf: Visitor.formToken(form.html), email, password, code: codeAt(secret, 1) });
  expect(signedIn.status).toBe(303);
  return { visitor, secret, password };
}

/** A buyout request sent as the shop's form sends it (both agreements ticked; Olga on Telegram unless told). */
export const sendBuyoutRequest = (baseUrl: string, fields: Record<string, unknown> = {}) =>
  fetch(`${baseUrl}/api/v1/ecommerce-core/redemption-request/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'ru' },
    body: JSON.stringify({
      name: 'Ольга Васнецова',
      phone: '+7 (912) 345-67-89',
      messenger: 'telegram',
      agreementPersonal: true,
      agreementPromo: true,
      ...fields,
    }),
  });
