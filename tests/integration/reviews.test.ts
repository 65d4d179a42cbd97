// Reviews on the storefront (issue 57, docs/reviews.md): a product's rating, count and fit answers are its
// approved reviews' own (pending and rejected ones count for nothing and show nowhere); the product page shows
// the newest, the fit summary at the size picker once there are five answers, and a JSON-LD AggregateRating
// with Review items only where approved reviews exist; the reviews page sorts, filters and pages by links;
// texts are shown as text. The demo seed writes real reviews whose figures are the products'.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/lib/db/client.ts';
import { makeBrand, makeCategory, makeProduct, type MadeProduct } from '../support/factories.ts';
import { readOutbox } from '../support/mail.ts';
import { signedInOperator, Visitor } from '../support/ops.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

interface Prepared {
  reviewed: MadeProduct;
  quiet: MadeProduct;
}

const PHOTO = [{ urlTemplate: '/media/abc-w{w}.webp', widths: [360], width: 360, height: 480, color: '#aabbcc' }];

async function review(
  db: Database['db'],
  productId: number,
  r: {
    rating: number;
    status?: string;
    fit?: string | null;
    liked?: string;
    useful?: number;
    days?: number;
    photos?: boolean;
    author?: string;
    email?: string;
  },
): Promise<void> {
  await db.execute(
    sql`INSERT INTO reviews (product_id, author, email, rating, fit, size_label, liked, status, useful, photos, published_at)
        VALUES (${productId}, ${r.author ?? 'Анна'}, ${r.email ?? ''}, ${r.rating}, ${r.fit ?? null}, 'M', ${r.liked ?? 'Хорошо сидит'}, ${r.status ?? 'approved'}, ${r.useful ?? 0},
                ${JSON.stringify(r.photos ? PHOTO : [])}::jsonb, ${r.status === 'approved' || r.status === undefined ? new Date(Date.UTC(2026, 10, r.days ?? 1)).toISOString() : null})`,
  );
}

let server: TestServer & { prepared: Prepared | undefined };
const fx = () => server.prepared!;
const page = async (path: string) => {
  const res = await fetch(new URL(path, server.baseUrl), { redirect: 'manual' });
  return { status: res.status, html: await res.text(), location: res.headers.get('location') };
};
const jsonLd = (html: string) => {
  const text = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '{}';
  return JSON.parse(text) as Record<string, unknown> & {
    aggregateRating?: { ratingValue: string; reviewCount: number; bestRating: number };
    review?: { '@type': string; author: { name: string }; datePublished: string; reviewRating: { ratingValue: number; bestRating: number } }[];
  };
};

beforeAll(async () => {
  server = await startTestServer<Prepared>({
    label: 'reviews',
    seedProducts: 30,
    prepare: async ({ db }: Database) => {
      const category = await makeCategory(db, { name: 'Отзывы', slug: 'otzyvy' });
      const brand = await makeBrand(db, { name: 'Reviewtest', nameRu: 'Ревьютест', slug: 'reviewtest' });
      const reviewed = await makeProduct(db, { name: 'Жакет', slug: 'zhaket', brand, category, price: 9_000, sizes: [{ label: 'M', stock: 10 }] });
      const quiet = await makeProduct(db, { name: 'Юбка', slug: 'yubka', brand, category, price: 5_000, sizes: [{ label: 'S', stock: 10 }] });
      await review(db, reviewed.id, { rating: 5, fit: 'small', days: 1, useful: 1, author: 'Мария' });
      await review(db, reviewed.id, { rating: 4, fit: 'small', days: 2, useful: 7, photos: true, author: 'Ольга' });
      await review(db, reviewed.id, { rating: 4, fit: 'small', days: 3, author: 'Ирина' });
      await review(db, reviewed.id, { rating: 3, fit: 'true', days: 4, liked: '<script>alert(1)</script>', author: 'Дарья' });
      await review(db, reviewed.id, { rating: 5, fit: 'small', days: 5, author: 'Юлия' });
      await review(db, reviewed.id, { rating: 5, fit: 'large', days: 6, author: 'Павел' });
      // Not approved: counted nowhere, shown nowhere.
      await review(db, reviewed.id, { rating: 1, status: 'pending', liked: 'Ждёт проверки', fit: 'large', author: 'Глеб', email: 'gleb.review@example.ru' });
      await review(db, reviewed.id, { rating: 2, status: 'pending', liked: 'Реклама магазина напротив', author: 'Спам', email: 'spam.review@example.ru' });
      await review(db, reviewed.id, { rating: 1, status: 'rejected', liked: 'Отклонён', fit: 'large' });
      return { reviewed, quiet };
    },
  });
}, 120_000);
afterAll(async () => server?.stop());

describe('reviews on the storefront', () => {
  it("a product's rating, count and fit answers are its approved reviews' own", async () => {
    const product = (
      (await (await fetch(`${server.baseUrl}/api/v1/ecommerce-core/product/${fx().reviewed.id}`)).json()) as {
        data: { rating: number; reviews_count: number; fit: Record<string, number> };
      }
    ).data;
    expect(product.reviews_count).toBe(6);
    expect(product.rating).toBeCloseTo(4.33, 2);
    expect(product.fit).toEqual({ small: 4, true: 1, large: 1 });
  });

  it('the product page shows the newest five, the fit summary, and a JSON-LD of approved reviews only', async () => {
    const { html } = await page(`/p/${fx().reviewed.id}/zhaket`);
    expect(html.match(/data-testid="review"/g)).toHaveLength(5);
    expect(html).toMatch(/data-testid="fit-summary"[^>]*>\s*<strong>Чаще маломерит — возьмите на размер больше<\/strong>/);
    expect(html).toContain('Все отзывы (6)');
    expect(html).not.toContain('Ждёт проверки');
    expect(html).not.toContain('Отклонён');
    // Newest first: Павел's of the 6th, Мария's of the 1st is on the reviews page only.
    expect(html.indexOf('Павел')).toBeLessThan(html.indexOf('Юлия'));
    expect(html).not.toContain('Мария');
    // Markup in a review is text.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>alert(1)</script>');
    const ld = jsonLd(html);
    expect(ld.aggregateRating).toMatchObject({ '@type': 'AggregateRating', ratingValue: '4.3', reviewCount: 6, bestRating: 5, worstRating: 1 });
    expect(ld.review).toHaveLength(5);
    for (const r of ld.review ?? []) {
      expect(r['@type']).toBe('Review');
      expect(r.author.name).toMatch(/\S/);
      expect(r.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(r.reviewRating.ratingValue).toBeGreaterThanOrEqual(1);
      expect(r.reviewRating.bestRating).toBe(5);
    }
  });

  it('a product without approved reviews has no rating in its JSON-LD and says so', async () => {
    const { html } = await page(`/p/${fx().quiet.id}/yubka`);
    const ld = jsonLd(html);
    expect(ld).not.toHaveProperty('aggregateRating');
    expect(ld).not.toHaveProperty('review');
    expect(html).toContain('Отзывов пока нет');
    expect(html).not.toContain('data-testid="fit-summary"');
  });

  it('the reviews page sorts, filters and pages by links', async () => {
    const all = await page(`/p/${fx().reviewed.id}/reviews`);
    expect(all.status).toBe(200);
    expect(all.html.match(/data-testid="review"/g)).toHaveLength(6);
    const useful = await page(`/p/${fx().reviewed.id}/reviews?sort=useful`);
    expect(useful.html.indexOf('Ольга')).toBeLessThan(useful.html.indexOf('Мария'));
    const fives = await page(`/p/${fx().reviewed.id}/reviews?rating=5`);
    expect(fives.html.match(/data-testid="review"/g)).toHaveLength(3);
    const photos = await page(`/p/${fx().reviewed.id}/reviews?photos=1`);
    expect(photos.html.match(/data-testid="review"/g)).toHaveLength(1);
    expect(photos.html).toContain('Ольга');
    // Junk is the default list; a page past the last is the 404.
    expect((await page(`/p/${fx().reviewed.id}/reviews?rating=abc&sort=%00`)).html.match(/data-testid="review"/g)).toHaveLength(6);
    expect((await page(`/p/${fx().reviewed.id}/reviews?page=9`)).location).toBe('/404');
    expect((await page('/p/99999999/reviews')).location).toBe('/404');
  });

  it("the demo seed's reviews are real rows whose figures are their products'", async () => {
    // A seeded product with reviews: its page lists them, and the count matches.
    for (let id = 1; id <= 30; id++) {
      const product = (
        (await (await fetch(`${server.baseUrl}/api/v1/ecommerce-core/product/${id}`)).json()) as {
          data?: { reviews_count: number; rating: number; url: string };
        }
      ).data;
      if (!product || product.reviews_count === 0) continue;
      const list = await page(`/p/${id}/reviews`);
      expect(list.html.match(/data-testid="review"/g)?.length).toBe(Math.min(product.reviews_count, 20));
      return;
    }
    throw new Error('no seeded product has reviews');
  });

  it('a manager publishes one, rejects another with a reason the author is mailed, replies, hides; the page follows within seconds', async () => {
    const manager: Visitor = (await signedInOperator(server, 'reviews.manager@example.ru', 'manager')).visitor;
    const queue = await manager.go('/ops/reviews');
    expect(queue.status).toBe(200);
    expect(queue.html).toContain('Ждёт проверки');
    expect(queue.html).not.toContain('Хорошо сидит');
    const csrf = Visitor.formToken(queue.html);
    const idOf = (text: string) =>
      queue.html
        .split('data-testid="ops-review-')
        .slice(1)
        .find((part) => part.includes(text))
        ?.match(/^(\d+)"/)?.[1] ?? '';
    const good = idOf('Ждёт проверки');
    const spam = idOf('Реклама магазина напротив');
    // A rejection needs its reason.
    const bare = await manager.go('/ops/reviews', { _csrf: csrf, action: 'reject', id: spam, reason: '  ' });
    expect(bare.status).toBe(422);
    expect(bare.html).toContain('Напишите причину: её увидит автор');
    expect((await manager.go('/ops/reviews', { _csrf: csrf, action: 'reject', id: spam, reason: 'Отзыв не о товаре' })).status).toBe(303);
    // Twice: the second manager is told it moved.
    const again = await manager.go('/ops/reviews', { _csrf: csrf, action: 'reject', id: spam, reason: 'Отзыв не о товаре' });
    expect(again.status).toBe(409);
    expect((await manager.go('/ops/reviews', { _csrf: csrf, action: 'approve', id: good })).status).toBe(303);
    expect((await manager.go('/ops/reviews', { _csrf: csrf, action: 'reply', id: good, reply: 'Спасибо! Размер M есть снова.' })).status).toBe(303);

    const product = async () =>
      (
        (await (await fetch(`${server.baseUrl}/api/v1/ecommerce-core/product/${fx().reviewed.id}`)).json()) as {
          data: { reviews_count: number; rating: number };
        }
      ).data;
    await expect.poll(async () => (await product()).reviews_count, { timeout: 15_000 }).toBe(7);
    expect((await product()).rating).toBeCloseTo(3.86, 2);
    await expect.poll(async () => (await page(`/p/${fx().reviewed.id}/zhaket`)).html, { timeout: 15_000 }).toContain('Спасибо! Размер M есть снова.');
    expect((await page(`/p/${fx().reviewed.id}/zhaket`)).html).not.toContain('Реклама магазина напротив');
    const mails = readOutbox(server.database.env['DATA_DIR']!);
    expect(mails.find((m) => m.to.includes('spam.review@example.ru'))?.body).toContain('Причина: Отзыв не о товаре');
    expect(mails.some((m) => m.to.includes('gleb.review@example.ru') && m.body.includes('опубликован'))).toBe(true);

    // Hidden: gone from the page and the figures.
    expect((await manager.go('/ops/reviews', { _csrf: csrf, action: 'hide', id: good })).status).toBe(303);
    await expect.poll(async () => (await product()).reviews_count, { timeout: 15_000 }).toBe(6);
    await expect.poll(async () => (await page(`/p/${fx().reviewed.id}/zhaket`)).html, { timeout: 15_000 }).not.toContain('Ждёт проверки');
    const log = await (await signedInOperator(server, 'reviews.admin@example.ru', 'admin')).visitor.go('/ops/audit?object=review');
    expect(log.html).toContain('review.reject');
    expect(log.html).toContain('review.hide');
  }, 60_000);
});
