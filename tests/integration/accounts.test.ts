// Customer accounts (issue 8) over real HTTP against the built server: registration, login, refresh,
// logout, throttles, password reset, the customer's own data and nobody else's, private pages, and public
// pages that never carry a customer.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { api, baseUrl, type Envelope } from '../support/api.ts';
import { resetLink, waitForMail } from '../support/mail.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const AUTH = '/api/v1/ecommerce-core/auth';
const CUSTOMER = '/api/v1/ecommerce-core/customer';

interface AuthData {
  access_token: string;
  expires_in: number;
  user: { id: number; email: string; phone: string; name: string; surname: string; patronymic: string };
  dashboard_content: { balance_amount: number; bonus_amount: number; bonus_available_until: string | null };
}

const post = (body: unknown, token?: string) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
});
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const uniqueEmail = (label = 'buyer') => `${label}.${randomBytes(5).toString('hex')}@example.ru`;
const PASSWORD = 'тихий вечер у реки';

async function register(email = uniqueEmail(), password = PASSWORD, phone = '+7 (999) 555-12-34') {
  const res = await api<AuthData>(`${AUTH}/customer-registration`, post({ email, phone, password }));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { email, password, token: res.body.data!.access_token, user: res.body.data!.user, res };
}

const login = (email: string, password: string) => api<AuthData>(`${AUTH}/customer-login`, post({ email, password }));

describe('registration', () => {
  it('creates the customer, logs them in with a token and a mirrored HttpOnly cookie, and mails a welcome', async () => {
    const { email, token, user, res } = await register();
    expect(res.body.message).toBe('Регистрация успешно выполнена');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(user).toMatchObject({ email, phone: '+7 (999) 555-12-34', name: '', surname: '', patronymic: '' });
    expect(res.body.data!.dashboard_content).toEqual({ balance_amount: 0, bonus_amount: 0, bonus_available_until: null });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`bs_session=${token}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // the test server is plain http
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const mail = await waitForMail(shared().dataDir, email);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.body).toContain('Добро пожаловать в Brandshop');
  });

  it.each([
    [{ email: 'нет-собаки', phone: '+7 (999) 555-12-34', password: PASSWORD }, 'email', 'Email не валиден'],
    [{ email: uniqueEmail(), phone: '', password: PASSWORD }, 'phone', 'Обязательное поле'],
    [{ email: uniqueEmail(), phone: '+7 (999) 555', password: PASSWORD }, 'phone', 'Введите номер телефона полностью'],
    [{ email: uniqueEmail(), phone: '+1 202 555 0100', password: PASSWORD }, 'phone', 'Введите российский мобильный номер: +7 (9XX) XXX-XX-XX'],
    [{ email: uniqueEmail(), phone: '+7 (999) 555-12-34', password: '' }, 'password', 'Обязательное поле'],
    [{ email: uniqueEmail(), phone: '+7 (999) 555-12-34', password: 'abc1234' }, 'password', 'Пароль должен содержать не менее 8 символов'],
    [{ email: uniqueEmail(), phone: '+7 (999) 555-12-34', password: 'x'.repeat(129) }, 'password', 'Пароль должен быть не длиннее 128 символов'],
    [{ email: uniqueEmail(), phone: '+7 (999) 555-12-34', password: 'password1' }, 'password', 'Этот пароль есть в известных утечках данных. Выберите другой'],
    [{ email: uniqueEmail(), phone: '+7 (999) 555-12-34', password: 'Qwertyuiop' }, 'password', 'Этот пароль есть в известных утечках данных. Выберите другой'],
    [{ email: uniqueEmail(), phone: 79995551234, password: PASSWORD }, 'phone', 'Ожидается текст'],
  ])('refuses %j with a field error under errors.%s', async (body, field, message) => {
    const { status, body: answer } = await api(`${AUTH}/customer-registration`, post(body));
    expect(status).toBe(422);
    expect(answer.success).toBe(false);
    expect(answer.errors?.[field]).toEqual([message]);
  });

  it('answers field errors in English for an English client', async () => {
    const { body } = await api(`${AUTH}/customer-registration`, {
      ...post({ email: uniqueEmail(), phone: '+7 (999) 555-12-34', password: 'short' }),
      headers: { 'content-type': 'application/json', 'accept-language': 'en' },
    });
    expect(body.errors?.['password']).toEqual(['The password must be at least 8 characters']);
  });

  it('refuses an address already registered, whatever its case and spaces', async () => {
    const { email } = await register();
    const { status, body } = await api(
      `${AUTH}/customer-registration`,
      post({ email: `  ${email.toUpperCase()} `, phone: '+7 (999) 555-12-34', password: PASSWORD }),
    );
    expect(status).toBe(422);
    expect(body.errors?.['email']).toEqual(['Пользователь с таким email уже зарегистрирован']);
  });

  it('accepts an internationalised address and a 128-character password, and logs in with either case', async () => {
    const email = `тест.${randomBytes(3).toString('hex')}@пример.рф`;
    const long = 'й'.repeat(120) + 'конецпар';
    await register(email, long);
    const res = await login(email.toUpperCase(), long);
    expect(res.status).toBe(200);
    expect(res.body.data!.user.email).toBe(email);
  });
});

describe('login, refresh and logout', () => {
  it('login → refresh (the old token works for a short grace, the new one after) → logout (both refused)', async () => {
    const { email } = await register();
    const first = await login(`  ${email} `, PASSWORD);
    expect(first.status).toBe(200);
    const token = first.body.data!.access_token;
    expect((await api(`${CUSTOMER}/customer-basic-info`, bearer(token))).status).toBe(200);

    const refreshed = await api<AuthData>(`${AUTH}/customer-refresh-auth`, bearer(token));
    expect(refreshed.status).toBe(200);
    const next = refreshed.body.data!.access_token;
    expect(next).not.toBe(token);
    expect(refreshed.headers.get('set-cookie')).toContain(`bs_session=${next}`);
    // Within the grace a tab that still holds the old token is served, but gets no second new token.
    expect((await api(`${CUSTOMER}/customer-basic-info`, bearer(token))).status).toBe(200);
    const again = await api<AuthData>(`${AUTH}/customer-refresh-auth`, bearer(token));
    expect(again.status).toBe(200);
    expect(again.body.data!.access_token).toBe('');

    const out = await api(`${AUTH}/customer-logout`, post({}, next));
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/bs_session=;.*Max-Age=0/);
    for (const t of [token, next]) {
      const res = await api(`${CUSTOMER}/customer-basic-info`, bearer(t));
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Необходимо авторизоваться');
      expect((await api(`${AUTH}/customer-refresh-auth`, bearer(t))).status).toBe(401);
    }
  });

  it('a wrong password and an unknown address get the same status, message and shape', async () => {
    const { email } = await register();
    const wrong = await login(email, 'не тот пароль совсем');
    const unknown = await login(uniqueEmail('nobody'), 'не тот пароль совсем');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe('Неверный email или пароль');
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('every account call without a token, with a malformed one or an unknown one answers 401', async () => {
    for (const headers of [{}, { authorization: 'Bearer' }, { authorization: 'Basic abc' }, { authorization: `Bearer ${'x'.repeat(43)}` }]) {
      for (const path of ['customer-basic-info', 'dashboard', 'balance-history', 'partners', 'addresses', 'customer-email-reset-link']) {
        const res = await api(`${CUSTOMER}/${path}`, { headers });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
      }
    }
  });

  it('the session cookie alone authorises no call (DESIGN §4: no CSRF surface)', async () => {
    const { token } = await register();
    const res = await api(`${CUSTOMER}/customer-basic-info`, { headers: { cookie: `bs_session=${token}` } });
    expect(res.status).toBe(401);
  });

  it('ten failed logins for one address lock it for everyone with 429, Retry-After and a Russian message', async () => {
    const { email } = await register();
    for (let i = 0; i < 10; i++) expect((await login(email, `неверный-${i}-пароль`)).status).toBe(401);
    const locked = await login(email, PASSWORD);
    expect(locked.status).toBe(429);
    expect(locked.body.message).toBe('Слишком много запросов. Попробуйте позже');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address from the same place is not locked by it.
    const other = await register();
    expect((await login(other.email, PASSWORD)).status).toBe(200);
  });
});

describe('password reset', () => {
  it('answers the forgot-password call alike for a known and an unknown address', async () => {
    const { email } = await register();
    const known = await api(`${AUTH}/customer-forgot-password`, post({ email }));
    const unknown = await api(`${AUTH}/customer-forgot-password`, post({ email: uniqueEmail('ghost') }));
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);
    expect(known.body.message).toBe('Ссылка для сброса пароля отправлена');
  });

  it('the e-mailed link sets a new password once, ends every session, and the old password stops working', async () => {
    const { email } = await register();
    const sessionA = (await login(email, PASSWORD)).body.data!.access_token;
    const sessionB = (await login(email, PASSWORD)).body.data!.access_token;
    await api(`${AUTH}/customer-forgot-password`, post({ email }));
    const mail = await waitForMail(shared().dataDir, email, (m) => m.body.includes('/password/reset?token='));
    expect(mail.body).toContain('Сброс пароля');
    const link = new URL(resetLink(mail));
    expect(link.origin).toBe(baseUrl());
    const token = link.searchParams.get('token')!;

    const mismatch = await api(`${AUTH}/customer-reset-password`, post({ token, password: 'новый пароль один', password_confirmation: 'другой' }));
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors?.['password_confirmation']).toEqual(['Пароли должны совпадать']);

    const done = await api(`${AUTH}/customer-reset-password`, post({ token, password: 'новый пароль один', password_confirmation: 'новый пароль один' }));
    expect(done.status).toBe(200);
    expect(done.body.message).toBe('Пароль изменён. Войдите с новым паролем');
    for (const t of [sessionA, sessionB]) expect((await api(`${CUSTOMER}/customer-basic-info`, bearer(t))).status).toBe(401);
    expect((await login(email, PASSWORD)).status).toBe(401);
    expect((await login(email, 'новый пароль один')).status).toBe(200);

    const twice = await api(`${AUTH}/customer-reset-password`, post({ token, password: 'третий пароль тут', password_confirmation: 'третий пароль тут' }));
    expect(twice.status).toBe(422);
    expect(twice.body.message).toBe('Ссылка для сброса пароля недействительна или устарела. Запросите новую');
  });

  it('a signed-in customer can ask for the link to their own address', async () => {
    const { email, token } = await register();
    const res = await api(`${CUSTOMER}/customer-email-reset-link`, bearer(token));
    expect(res.status).toBe(200);
    await waitForMail(shared().dataDir, email, (m) => m.body.includes('/password/reset?token='));
  });

  it('throttles forgot-password per address: the fourth request in an hour is refused', async () => {
    const email = uniqueEmail('forgetful');
    for (let i = 0; i < 3; i++) expect((await api(`${AUTH}/customer-forgot-password`, post({ email }))).status).toBe(200);
    const refused = await api(`${AUTH}/customer-forgot-password`, post({ email }));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe("the customer's own data, and nobody else's", () => {
  it('updates the profile from multipart form data, ignoring an id in the body', async () => {
    const a = await register();
    const b = await register();
    const form = new FormData();
    for (const [k, v] of Object.entries({ id: String(a.user.id), name: 'Борис', surname: 'Петров', patronymic: '', email: b.email, phone: '8 999 111 22 33' }))
      form.append(k, v);
    const res = await api<AuthData['user']>(`${CUSTOMER}/update-customer-basic-info`, { method: 'POST', body: form, ...bearer(b.token) });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: b.user.id, name: 'Борис', surname: 'Петров', phone: '+7 (999) 111-22-33' });
    expect((await api<AuthData['user']>(`${CUSTOMER}/customer-basic-info`, bearer(a.token))).body.data!.name).toBe('');
  });

  it("refuses taking another customer's e-mail and names without letters", async () => {
    const a = await register();
    const b = await register();
    const res = await api(`${CUSTOMER}/update-customer-basic-info`, post({ name: '😀😀', email: a.email, phone: '+7 (999) 111-22-33' }, b.token));
    expect(res.status).toBe(422);
    expect(res.body.errors?.['name']).toEqual(['Имя должно содержать минимум 2 буквы']);
    const taken = await api(
      `${CUSTOMER}/update-customer-basic-info`,
      post({ name: 'Вера', email: a.email.toUpperCase(), phone: '+7 (999) 111-22-33' }, b.token),
    );
    expect(taken.status).toBe(422);
    expect(taken.body.errors?.['email']).toEqual(['Пользователь с таким email уже зарегистрирован']);
  });

  it("keeps addresses per customer: another customer's address answers 404 to every call", async () => {
    const a = await register();
    const b = await register();
    const address = {
      recipient: 'Анна Иванова',
      phone: '+7 (999) 123-45-67',
      city: 'Москва',
      street: 'Тверская',
      house: '7',
      apartment: '12',
      postcode: '125009',
    };
    const created = await api<{ id: number; is_default: boolean }>(`${CUSTOMER}/addresses`, post(address, a.token));
    expect(created.status).toBe(201);
    expect(created.body.data!.is_default).toBe(true);
    const second = await api<{ id: number; is_default: boolean }>(`${CUSTOMER}/addresses`, post({ ...address, city: 'Казань', is_default: true }, a.token));
    expect(second.body.data!.is_default).toBe(true);
    const list = await api<{ id: number; city: string; is_default: boolean }[]>(`${CUSTOMER}/addresses`, bearer(a.token));
    expect(list.body.data!.map((x) => [x.city, x.is_default])).toEqual([
      ['Казань', true],
      ['Москва', false],
    ]);
    const id = created.body.data!.id;
    for (const [path, body] of [
      [`${CUSTOMER}/addresses/${id}`, address],
      [`${CUSTOMER}/addresses/${id}/delete`, {}],
      [`${CUSTOMER}/addresses/${id}/default`, {}],
    ] as const) {
      expect((await api(path, post(body, b.token))).status, path).toBe(404);
    }
    expect((await api<unknown[]>(`${CUSTOMER}/addresses`, bearer(b.token))).body.data).toEqual([]);
    // Deleting the default passes the mark to the oldest address left.
    expect((await api(`${CUSTOMER}/addresses/${second.body.data!.id}/delete`, post({}, a.token))).status).toBe(200);
    const after = await api<{ id: number; is_default: boolean }[]>(`${CUSTOMER}/addresses`, bearer(a.token));
    expect(after.body.data).toEqual([expect.objectContaining({ id, is_default: true })]);
    const bad = await api(`${CUSTOMER}/addresses`, post({ ...address, postcode: '12', city: '' }, a.token));
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ postcode: ['Индекс — 6 цифр'], city: ['Обязательное поле'] });
  });

  it('the dashboard, the ledger and the partner programme answer for the customer', async () => {
    const { token } = await register();
    const dash = await api<{ balance_amount: number; recent_orders: unknown[] }>(`${CUSTOMER}/dashboard`, bearer(token));
    expect(dash.status).toBe(200);
    expect(dash.body.data).toMatchObject({ balance_amount: 0, bonus_amount: 0, recent_orders: [] });
    expect(dash.body.meta_data?.title).toBeTruthy();
    const ledger = await api<{ entries: unknown[]; total: number }>(`${CUSTOMER}/balance-history?kind=bonus`, bearer(token));
    expect(ledger.body.data).toMatchObject({ entries: [], total: 0, page: 1, last_page: 1 });
    expect((await api(`${CUSTOMER}/balance-history?kind=gold`, bearer(token))).status).toBe(422);
    const partners = await api<{ code: string; link: string; statistics: unknown[] }>(`${CUSTOMER}/partners`, bearer(token));
    expect(partners.body.data!.code).toMatch(/^[a-z0-9]{8}$/);
    expect(partners.body.data!.link).toBe(`${baseUrl()}/?ref=${partners.body.data!.code}`);
    expect((await api<{ code: string }>(`${CUSTOMER}/partners`, bearer(token))).body.data!.code).toBe(partners.body.data!.code);
  });

  it('a visit through a referral link and a registration through it show in the statistics', async () => {
    const partner = await register();
    const { code } = (await api<{ code: string }>(`${CUSTOMER}/partners`, bearer(partner.token))).body.data!;
    const visit = await api<{ counted: boolean }>('/api/v1/ecommerce-core/partners/visit', post({ code, landing: '/c/1/odezhda?ref=x' }));
    expect(visit.body.data!.counted).toBe(true);
    // The same visitor the same day is one visit.
    expect((await api<{ counted: boolean }>('/api/v1/ecommerce-core/partners/visit', post({ code, landing: '/' }))).body.data!.counted).toBe(false);
    expect((await api<{ counted: boolean }>('/api/v1/ecommerce-core/partners/visit', post({ code: 'zzzzzzzz' }))).body.data!.counted).toBe(false);
    const res = await api(`${AUTH}/customer-registration`, post({ email: uniqueEmail('friend'), phone: '+7 (999) 000-00-01', password: PASSWORD, ref: code }));
    expect(res.status).toBe(201);
    const stats = (
      await api<{ statistics: { traffic: number; referrals: number }[]; totals: { traffic: number; referrals: number } }>(
        `${CUSTOMER}/partners`,
        bearer(partner.token),
      )
    ).body.data!;
    expect(stats.totals).toMatchObject({ traffic: 1, referrals: 1 });
    expect(stats.statistics[0]).toMatchObject({ traffic: 1, referrals: 1, orders: 0 });
  });
});

describe('pages: private ones guarded, public ones the same for everyone', () => {
  const page = (path: string, cookie?: string) => fetch(new URL(path, baseUrl()), { redirect: 'manual', headers: cookie ? { cookie } : {} });

  let customerToken = '';
  beforeAll(async () => {
    customerToken = (await register()).token;
  });

  it.each(['/dashboard', '/dashboard/orders', '/dashboard/balance', '/dashboard/wishlist', '/dashboard/profile', '/dashboard/partners', '/dashboard/address'])(
    '%s sends a guest to / and shows a customer their page, private and uncached',
    async (path) => {
      const guest = await page(path);
      expect(guest.status).toBe(302);
      expect(guest.headers.get('location')).toBe('/');
      expect((await page(path, 'bs_session=not-a-real-token')).status).toBe(302);
      const res = await page(path, `bs_session=${customerToken}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const html = await res.text();
      expect(html).toContain('Выйти');
    },
  );

  it('the profile’s saved fields are in the page’s HTML, never an empty form while its script loads', async () => {
    const { email, token } = await register(uniqueEmail('filled'));
    await api(
      `${CUSTOMER}/update-customer-basic-info`,
      post({ name: 'Аглая', surname: 'Заполненная', patronymic: 'Петровна', email, phone: '+7 (999) 222-33-45' }, token),
    );
    const html = await (await page('/dashboard/profile', `bs_session=${token}`)).text();
    const value = (autocomplete: string) =>
      new RegExp(`<input[^>]*autoComplete="${autocomplete}"[^>]*>|<input[^>]*autocomplete="${autocomplete}"[^>]*>`).exec(html)?.[0] ?? '';
    expect(value('given-name')).toContain('value="Аглая"');
    expect(value('family-name')).toContain('value="Заполненная"');
    expect(value('additional-name')).toContain('value="Петровна"');
    expect(value('email')).toContain(`value="${email}"`);
    expect(html).toMatch(/<input[^>]*value="\+7 \(999\) 222-33-45"/);
  });

  it('after a customer signs in and browses, no public page served to another visitor carries their name, e-mail or balance', async () => {
    const { email, token } = await register(uniqueEmail('leak'));
    await api(`${CUSTOMER}/update-customer-basic-info`, post({ name: 'Евлампия', surname: 'Утечкина', email, phone: '+7 (999) 222-33-44' }, token));
    const catalog = shared().catalog;
    const paths = [
      '/',
      '/brands',
      `/c/${catalog.dresses.id}/${catalog.dresses.slug}`,
      catalog.dressProducts[0]!.url,
      '/blog',
      '/i/4/contacts',
      '/product/search/gucci',
    ];
    const cookie = `bs_session=${token}`;
    for (const path of paths) {
      const signedIn = await page(path, cookie);
      const html = await signedIn.text();
      expect(html, path).not.toContain('Евлампия');
      expect(html, path).not.toContain(email);
      // The page is the same for everyone, so it may be kept by shared caches.
      if (signedIn.status === 200) expect(signedIn.headers.get('cache-control'), path).toMatch(/public/);
    }
    for (const path of paths) {
      const html = await (await page(path)).text();
      expect(html, path).not.toContain('Евлампия');
      expect(html, path).not.toContain('Утечкина');
      expect(html, path).not.toContain(email);
    }
  });

  it('/auth-redirect and /password/reset answer without a session, privately', async () => {
    for (const path of ['/auth-redirect', '/password/reset?token=abc']) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    }
    expect(await (await page('/auth-redirect')).text()).toContain('Авторизация...');
  });
});

describe('hostile bodies get a clear 4xx, never a 500', () => {
  const bodies: [string, string, unknown][] = [
    ['customer-login', 'application/json', { email: ['a'], password: { $gt: '' } }],
    ['customer-login', 'application/json', { email: 'a@b.ru', password: 'x'.repeat(2000) }],
    ['customer-login', 'application/json', { email: 'a@b.ru\u0000', password: 'x' }],
    ['customer-registration', 'application/json', { email: 'a@b.ru', phone: '+7 (999) 555-12-34', password: 'пароль\u0000пароль' }],
    ['customer-registration', 'application/json', null],
    ['customer-forgot-password', 'application/json', { email: 'x'.repeat(300) + '@b.ru' }],
    ['customer-reset-password', 'application/json', { token: 'x'.repeat(500), password: PASSWORD, password_confirmation: PASSWORD }],
    ['customer-reset-password', 'application/json', { token: 'nope', password: PASSWORD, password_confirmation: PASSWORD }],
  ];
  it.each(bodies)('%s with %s %j', async (path, type, body) => {
    const res = await fetch(new URL(`${AUTH}/${path}`, baseUrl()), { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(body) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const answer = (await res.json()) as Envelope;
    expect(answer.success).toBe(false);
    expect(answer.message).toBeTruthy();
  });
});

describe('after the grace', () => {
  // A server of its own whose rotated-out tokens work for one second instead of sixty.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ label: 'grace', env: { SESSION_GRACE_SECONDS: '1' } });
  }, 120_000);
  afterAll(async () => server?.stop());

  it('the token a refresh replaced is refused once the grace is over; the new one keeps working', async () => {
    const call = async (path: string, init: RequestInit = {}) => (await fetch(new URL(path, server.baseUrl), init)).status;
    const res = await fetch(
      new URL(`${AUTH}/customer-registration`, server.baseUrl),
      post({ email: uniqueEmail('grace'), phone: '+7 (999) 555-12-34', password: PASSWORD }),
    );
    const token = ((await res.json()) as Envelope<AuthData>).data!.access_token;
    const refreshed = await fetch(new URL(`${AUTH}/customer-refresh-auth`, server.baseUrl), bearer(token));
    const next = ((await refreshed.json()) as Envelope<AuthData>).data!.access_token;
    expect(await call(`${CUSTOMER}/customer-basic-info`, bearer(token))).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await call(`${CUSTOMER}/customer-basic-info`, bearer(token))).toBe(401);
    expect(await call(`${AUTH}/customer-refresh-auth`, bearer(token))).toBe(401);
    expect(await call(`${CUSTOMER}/customer-basic-info`, bearer(next))).toBe(200);
  });
});
