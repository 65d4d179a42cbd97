// The console's inbox of buyout requests (issue 24): a request sent through the shop's form shows up in the
// inbox, the managers' e-mail links to it, a manager takes it and moves it along, a colleague's stale form
// is refused, and every change is in the audit log — on the built server, PGlite and PostgreSQL in CI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.ts';
import { waitForMail } from '../support/mail.ts';
import { sendBuyoutRequest, signedInOperator, Visitor } from '../support/ops.ts';

let server: TestServer;
let anna: Visitor;
let boris: Visitor;

const send = (body: Record<string, unknown>) => sendBuyoutRequest(server.baseUrl, body);

async function request(body: Record<string, unknown>): Promise<number> {
  const res = await send(body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number } }).data.id;
}

beforeAll(async () => {
  // 55 requests of last month, already bought (the form takes 5 an hour from one address: these are written
  // before the server starts).
  server = await startTestServer({
    seedProducts: 10,
    label: 'ops-buyout',
    prepare: async (db) => {
      for (let i = 0; i < 55; i++)
        await db.query(
          `INSERT INTO buyout_requests (name, phone, messenger, description, agreement_personal, agreement_promo, status, created_at)
           VALUES ($1, $2, 'viber', $3, true, false, 'bought', now() - interval '30 days')`,
          [`Покупатель ${i}`, `+7 (999) 200-${String(i).padStart(2, '0')}-00`, `Сумка ${i}`],
        );
    },
  });
  anna = (await signedInOperator(server, 'anna@shop.ru', 'manager')).visitor;
  boris = (await signedInOperator(server, 'boris@shop.ru', 'manager')).visitor;
}, 120_000);
afterAll(() => server?.stop());

const ids = (html: string) => [...html.matchAll(/<a href="\/ops\/buyout\/(\d+)">/g)].map((m) => Number(m[1]));
const tabCount = (html: string, status: string) => Number(new RegExp(`data-testid="ops-buyout-tab-${status}"[^>]*>[^<]*<span[^>]*>(\\d+)<`).exec(html)?.[1]);
const testid = (html: string, id: string) => new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1]?.trim();

describe('the buyout inbox', () => {
  let id: number;

  it('shows a request sent a moment ago, and the managers’ e-mail links to it', async () => {
    id = await request({
      name: 'Ольга Васнецова',
      phone: '+7 (912) 345-67-89',
      messenger: 'whatsApp',
      description: 'Hermès Birkin 30, <b>togo</b>, gold',
      product_url: 'javascript:alert(1)',
      images: [{ url: 'https://example.com/photo.jpg' }],
    });
    const mail = await waitForMail(server.database.env['DATA_DIR'] as string, 'managers@brandshop.local', (m) => m.body.includes(`№${id}`));
    expect(mail.body).toContain(`${server.baseUrl}/ops/buyout/${id}`);
    const inbox = await anna.go('/ops/buyout');
    expect(inbox.status).toBe(200);
    expect(inbox.headers.get('cache-control')).toContain('no-store');
    expect(ids(inbox.html)[0]).toBe(id);
    expect(tabCount(inbox.html, 'new')).toBe(1);
    const page = await anna.go(`/ops/buyout/${id}`);
    expect(page.status).toBe(200);
    expect(testid(page.html, 'ops-buyout-status')).toBe('Новая');
    expect(page.html).toContain('href="https://wa.me/79123456789"');
    expect(page.html).toContain('Hermès Birkin 30, &lt;b&gt;togo&lt;/b&gt;, gold');
    // The visitor's link is not a link unless it is http(s); the photo is a link, never loaded.
    expect(page.html).not.toContain('href="javascript:');
    expect(page.html).toContain('ссылка не открывается из панели');
    expect(page.html).toContain('href="https://example.com/photo.jpg"');
    expect(page.html).not.toContain('<img src="https://example.com');
    expect(testid(page.html, 'ops-buyout-taken')).toBe('никто');
  });

  it('is worked new → in progress → offer sent by the manager who took it, each change in its history', async () => {
    const page = await anna.go(`/ops/buyout/${id}`);
    const csrf = Visitor.formToken(page.html);
    const taken = await anna.go(`/ops/buyout/${id}`, { _csrf: csrf, action: 'take' });
    expect(taken.status).toBe(303);
    const after = await anna.go(taken.headers.get('location') as string);
    expect(after.html).toContain('Заявка ваша');
    expect(testid(after.html, 'ops-buyout-status')).toBe('В работе');
    expect(testid(after.html, 'ops-buyout-taken')).toBe('anna@shop.ru');
    // A move the rules forbid: refused with the reason, nothing changes.
    const skip = await anna.go(`/ops/buyout/${id}`, { _csrf: csrf, action: 'move', status: 'bought' });
    expect(skip.status).toBe(409);
    expect(skip.html).toContain('Заявку нельзя перевести из статуса «В работе» в «Выкуплено»');
    const offered = await anna.go(`/ops/buyout/${id}`, { _csrf: csrf, action: 'move', status: 'offer_sent' });
    expect(offered.status).toBe(303);
    const noted = await anna.go(`/ops/buyout/${id}`, { _csrf: csrf, action: 'note', note: 'Предложили 1 250 000 ₽, ждём ответа' });
    expect(noted.status).toBe(303);
    const shown = await anna.go(`/ops/buyout/${id}`);
    expect(testid(shown.html, 'ops-buyout-status')).toBe('Предложение отправлено');
    expect(shown.html).toContain('Предложили 1 250 000 ₽, ждём ответа');
    expect(shown.html).toContain('buyout.take: status: new, taken_by: null → status: in_progress, taken_by: anna@shop.ru');
    expect(shown.html).toContain('buyout.status: status: in_progress → status: offer_sent');
    const mine = await anna.go('/ops/buyout?mine=1');
    expect(ids(mine.html)).toEqual([id]);
    expect(ids((await boris.go('/ops/buyout?mine=1')).html)).toEqual([]);
    expect(tabCount((await boris.go('/ops/buyout')).html, 'offer_sent')).toBe(1);
  });

  it('refuses a colleague’s form that is out of date, a forged token and another session’s token', async () => {
    const other = await request({ name: 'Игорь Петров', phone: '+7 (999) 111-22-33', description: 'Rolex Daytona' });
    const borisPage = await boris.go(`/ops/buyout/${other}`);
    const annaPage = await anna.go(`/ops/buyout/${other}`);
    expect((await anna.go(`/ops/buyout/${other}`, { _csrf: Visitor.formToken(annaPage.html), action: 'move', status: 'declined' })).status).toBe(303);
    // Boris's page still offers "take it"; the request is closed now.
    const late = await boris.go(`/ops/buyout/${other}`, { _csrf: Visitor.formToken(borisPage.html), action: 'take' });
    expect(late.status).toBe(409);
    expect(late.html).toContain('Заявка закрыта');
    for (const csrf of ['', 'forged', Visitor.formToken(annaPage.html)]) {
      const res = await boris.go(`/ops/buyout/${id}`, { _csrf: csrf, action: 'move', status: 'declined' });
      expect(res.status, csrf).toBe(403);
    }
    const unchanged = await anna.go(`/ops/buyout/${id}`);
    expect(testid(unchanged.html, 'ops-buyout-status')).toBe('Предложение отправлено');
  });

  it('finds requests by number, phone digits and words; pages past 50; unknown ids are 404', async () => {
    const first = await anna.go('/ops/buyout');
    expect(ids(first.html)).toHaveLength(50);
    const next = /<a href="([^"]+)" rel="next">/.exec(first.html)?.[1]?.replace(/&amp;/g, '&') as string;
    const second = await anna.go(next);
    expect(new Set([...ids(first.html), ...ids(second.html)]).size).toBe(57);
    expect(ids((await anna.go(`/ops/buyout?q=${encodeURIComponent(`№${id}`)}`)).html)).toEqual([id]);
    expect(ids((await anna.go('/ops/buyout?q=912%20345')).html)).toEqual([id]);
    expect(ids((await anna.go(`/ops/buyout?q=${encodeURIComponent('birkin')}`)).html)).toEqual([id]);
    for (const path of ['/ops/buyout/999999', '/ops/buyout/abc', '/ops/buyout/1e3', '/ops/buyout/99999999999999'])
      expect((await anna.go(path)).status, path).toBe(404);
    // A hand-edited filter is dropped, not a 500.
    expect((await anna.go('/ops/buyout?status=bogus&after=-1&mine=yes&q=%00')).status).toBe(200);
  });

  it('is closed to visitors without an operator session', async () => {
    const res = await fetch(`${server.baseUrl}/ops/buyout/${id}`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/ops/login');
  });
});
