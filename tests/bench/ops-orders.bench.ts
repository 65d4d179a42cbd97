// The console's order list at 100,000 orders (issue 24; `npm run bench -- --ops-orders`, never npm test):
// fills the database in DATA_DIR or DATABASE_URL up to BENCH_ORDERS orders (a year of them, the statuses,
// payments and deliveries of a working shop, Russian names — the twelve commonest surnames on 2% of orders
// each, as the commonest are in Russia, and a first name on one order in six — e-mails and phones), then times the list the
// way /ops/orders asks it — a page and its status counts together — under every filter and search, and
// the new-orders poll. Writes percentiles to BENCH_OUT. The budget: p95 ≤ 50 ms.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { test } from 'vitest';
import { consoleOrders, newerOrders, type ConsoleOrdersQuery } from '~/features/console/console.orders.server.ts';
import { getDatabase } from '~/lib/db/index.ts';

const TARGET = Number(process.env['BENCH_ORDERS'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 200);

const SURNAMES = ['Иванова', 'Смирнов', 'Кузнецова', 'Попов', 'Васильева', 'Петров', 'Соколова', 'Михайлов', 'Новикова', 'Фёдоров', 'Морозова', 'Волков'];

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
  const round = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, p50: round(at(0.5)), p95: round(at(0.95)), max: round(s.at(-1) as number) };
}

test('console order list', async () => {
  const database = await getDatabase();
  const { rows } = await database.query('SELECT count(*)::int AS n FROM orders');
  const have = Number(rows[0]?.n ?? 0);
  if (have < TARGET) {
    const started = performance.now();
    // In one statement per 20,000: the shop's own order codes start at BS-1…, these at BS-9….
    for (let from = have; from < TARGET; from += 20_000) {
      const to = Math.min(TARGET, from + 20_000) - 1;
      await database.query(
        `INSERT INTO orders (code, status, contact_name, contact_phone, contact_email, delivery_address, items_total, total, payment_status, delivery_method, created_at)
         SELECT 'BS-' || (90000000 + i)::text,
                (ARRAY['pending','paid','shipped','delivered','delivered','delivered','cancelled','processing'])[1 + i % 8],
                (ARRAY['Анна','Мария','Олег','Ирина','Дмитрий','Елена'])[1 + i % 6] || ' ' ||
                  CASE WHEN (i * 7) % 50 < ${SURNAMES.length} THEN ($1::text[])[1 + (i * 7) % 50]
                       ELSE (ARRAY['Белов','Воронцов','Гусев','Журавлёв','Зайцев','Комаров','Лебедев','Медведев','Орлов','Соболев','Тетерин','Щеглов','Ершов','Носов','Крылов','Рябов','Сорокин','Чайкин','Уткин','Грачёв'])[1 + (i / 50) % 20]
                            || (ARRAY['','а','ский','ская','ин','ина','ец','ов'])[1 + (i / 1000) % 8] END
                  || CASE WHEN i % 97 = 0 THEN ' ' || i::text ELSE '' END,
                '+7 (9' || lpad((i % 100)::text, 2, '0') || ') ' || lpad((i % 1000)::text, 3, '0') || '-' || lpad(((i / 7) % 100)::text, 2, '0') || '-' || lpad(((i / 3) % 100)::text, 2, '0'),
                'buyer' || i::text || '@' || (ARRAY['mail.ru','yandex.ru','gmail.com','bk.ru'])[1 + i % 4],
                '{}'::jsonb, 50000 + (i % 400) * 1000, 50000 + (i % 400) * 1000,
                (ARRAY['unpaid','paid','paid','paid','paid','refunded','refund_due','paid'])[1 + i % 8],
                (ARRAY['courier','pickup','post'])[1 + i % 3],
                timestamptz '2026-11-25 12:00+03' - make_interval(secs => i * 315)
         FROM generate_series($2::int, $3::int) AS i`,
        [SURNAMES, from, to],
      );
    }
    await database.query('ANALYZE orders');
    console.log(`${TARGET - have} orders written in ${Math.round(performance.now() - started)} ms`);
  }

  const first = await consoleOrders({});
  const deep = await (async () => {
    // The cursor of page 40: how far a manager scrolls back through a season.
    let page = first;
    for (let i = 0; i < 40 && page.next; i++) page = await consoleOrders({ after: page.next });
    return page.next ?? '0.0';
  })();
  const cases: Record<string, ConsoleOrdersQuery> = {
    'all, first page': {},
    'all, page 41': { after: deep },
    'status tab (shipped)': { status: 'shipped' },
    'payment refund_due': { payment: 'refund_due' },
    'delivery + dates (a week)': { delivery: 'pickup', from: '2026-10-01', to: '2026-10-07' },
    'search: order code': { q: 'BS-90012345' },
    'search: e-mail': { q: 'buyer4242@' },
    'search: phone digits': { q: '912 345' },
    'search: a common surname (2%)': { q: 'Кузнецова' },
    'search: a first name (17%)': { q: 'Дмитрий' },
    'search: rare name': { q: 'Смирнов 9797' },
    'search: nothing found': { q: 'Жуковская' },
  };
  const results: Record<string, ReturnType<typeof stats>> = {};
  for (const [name, query] of Object.entries(cases)) {
    await consoleOrders(query); // warm-up: the plan and the pages in memory, not the measurement
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      await consoleOrders(query);
      samples.push(performance.now() - started);
    }
    results[name] = stats(samples);
  }
  const since = first.rows[5]?.cursor ?? '0.0';
  const poll: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await newerOrders({}, since);
    poll.push(performance.now() - started);
  }
  results['new-orders poll'] = stats(poll);
  console.table(results);
  const out = process.env['BENCH_OUT'];
  if (out) writeFileSync(out, JSON.stringify({ orders: TARGET, database: database.kind, results }, null, 2));
});
