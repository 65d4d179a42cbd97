// Two server processes on one PostgreSQL behave as one shop (issue 8, DESIGN §10): a token issued by one
// is accepted by the other, a logout on one is refused at once by the other, and throttle counters add
// up across both. PGlite is one process's database, so this runs on PostgreSQL only (CI runs it there).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const postgres = shared().databaseKind === 'postgres';

describe.runIf(postgres)('two processes on one PostgreSQL', () => {
  let second: TestServer;
  const first = () => shared().baseUrl;

  beforeAll(async () => {
    // The same database as the shared test server: startTestServer makes a fresh one, so point it back.
    second = await startTestServer({ label: 'second', env: { DATABASE_URL: shared().databaseUrl, AUTO_MIGRATE: 'false' } });
  }, 120_000);
  afterAll(async () => second?.stop());

  const call = async (base: string, path: string, init: RequestInit = {}) => {
    const res = await fetch(new URL(path, base), { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
    return { status: res.status, body: (await res.json()) as { data?: { access_token: string }; message?: string } };
  };
  const body = (value: unknown) => ({ method: 'POST', body: JSON.stringify(value) });
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  it('a token from one process works on the other, and a logout on one is refused by the other at once', async () => {
    const email = `scale.${randomBytes(4).toString('hex')}@example.ru`;
    const reg = await call(
      first(),
      '/api/v1/ecommerce-core/auth/customer-registration',
      body({ email, phone: '+7 (999) 101-20-30', password: 'две машины одна база' }),
    );
    expect(reg.status).toBe(201);
    const token = reg.body.data!.access_token;
    expect((await call(second.baseUrl, '/api/v1/ecommerce-core/customer/customer-basic-info', bearer(token))).status).toBe(200);
    const refreshed = await call(second.baseUrl, '/api/v1/ecommerce-core/auth/customer-refresh-auth', bearer(token));
    const next = refreshed.body.data!.access_token;
    expect((await call(first(), '/api/v1/ecommerce-core/customer/customer-basic-info', bearer(next))).status).toBe(200);
    expect((await call(first(), '/api/v1/ecommerce-core/auth/customer-logout', { method: 'POST', ...bearer(next) })).status).toBe(200);
    expect((await call(second.baseUrl, '/api/v1/ecommerce-core/customer/customer-basic-info', bearer(next))).status).toBe(401);
    expect((await call(second.baseUrl, '/api/v1/ecommerce-core/customer/customer-basic-info', bearer(token))).status).toBe(401);
  });

  it('failed logins on both processes add up to one lock', async () => {
    const email = `scale.${randomBytes(4).toString('hex')}@example.ru`;
    await call(first(), '/api/v1/ecommerce-core/auth/customer-registration', body({ email, phone: '+7 (999) 101-20-31', password: 'две машины одна база' }));
    for (let i = 0; i < 10; i++) {
      const base = i % 2 === 0 ? first() : second.baseUrl;
      expect((await call(base, '/api/v1/ecommerce-core/auth/customer-login', body({ email, password: `неверно ${i}` }))).status).toBe(401);
    }
    for (const base of [first(), second.baseUrl]) {
      const locked = await call(base, '/api/v1/ecommerce-core/auth/customer-login', body({ email, password: 'две машины одна база' }));
      expect(locked.status).toBe(429);
      expect(locked.body.message).toBe('Слишком много запросов. Попробуйте позже');
    }
  });
});
