// The content calls of spec §7 over real HTTP against the built server.
import { describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { api, baseUrl } from '../support/api.ts';

interface Page {
  id: number;
  slug: string;
  url: string;
  title: string;
  content: string;
}
const INFO_PAGES: Record<number, string> = {
  4: 'contacts',
  5: 'personal-data',
  6: 'terms',
  7: 'support',
  9: 'o-dostavke',
  10: 'refund-exchange',
  12: 'razmery',
  14: 'o-nashej-kompanii',
  19: 'privacy-policy',
  22: 'become-seller',
  25: 'concierge',
  27: 'review-bonuses',
};

describe('GET /api/theme/tlcommerce/v1/page/{id}', () => {
  it('returns the contacts page with meta_data and breadcrumbs', async () => {
    const { status, body, headers } = await api<Page>('/api/theme/tlcommerce/v1/page/4');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ id: 4, slug: 'contacts', url: '/i/4/contacts', title: 'Контакты' });
    expect(body.data?.content).toContain('<h2');
    expect(body.meta_data).toEqual({ title: 'Контакты — Brandshop', description: expect.stringContaining('Как связаться') });
    expect(body.breadcrumbs).toEqual([{ name: 'Главная', url: '/' }, { name: 'Контакты' }]);
    expect(headers.get('cache-control')).toContain('s-maxage');
  });

  it.each(Object.entries(INFO_PAGES))('serves info page %s (%s) with real text', async (id, slug) => {
    const { status, body } = await api<Page>(`/api/theme/tlcommerce/v1/page/${id}`);
    expect(status).toBe(200);
    expect(body.data?.slug).toBe(slug);
    // Sensible length: these are pages people read, not placeholders.
    expect(body.data?.content.replace(/<[^>]+>/g, '').length).toBeGreaterThan(600);
  });

  it('page 12 has size charts including children’s shoes', async () => {
    const { body } = await api<Page>('/api/theme/tlcommerce/v1/page/12');
    expect(body.data?.content).toContain('Детская обувь');
    expect(body.data?.content).toContain('<table');
  });

  it.each(['abc', '0', '-1', '1.5', '999999999999', '%00', '4abc', ' 4'])('answers 404 in the envelope for id %j', async (id) => {
    const { status, body } = await api(`/api/theme/tlcommerce/v1/page/${encodeURIComponent(id)}`);
    expect(status).toBe(404);
    expect(body).toEqual({ success: false, message: 'Страница не найдена' });
  });

  it('answers 404 for an id with no page', async () => {
    const { status, body } = await api('/api/theme/tlcommerce/v1/page/3');
    expect(status).toBe(404);
    expect(body.success).toBe(false);
  });
});

describe('GET /api/v1/ecommerce-core/meta-data', () => {
  it.each(['home', 'catalog', 'brands', 'blog', 'search', 'cart', 'checkout', 'dashboard', 'auth', 'not-found'])('has meta for type %s', async (type) => {
    const { status, body } = await api<{ title: string; description: string }>(`/api/v1/ecommerce-core/meta-data?type=${type}`);
    expect(status).toBe(200);
    expect(body.data?.title).toMatch(/Brandshop/);
    expect(body.data?.description.length).toBeGreaterThan(10);
    expect(body.meta_data).toEqual(body.data);
  });

  it.each([
    ['no type', ''],
    ['unknown type', '?type=nope'],
    ['a huge type', `?type=${'x'.repeat(5000)}`],
    ['a repeated type', '?type=home&type=blog'],
  ])('answers 422 with a field error for %s', async (_label, query) => {
    const { status, body } = await api(`/api/v1/ecommerce-core/meta-data${query}`);
    expect(status).toBe(422);
    expect(body.success).toBe(false);
    expect(body.message).toBe('Проверьте правильность заполнения полей');
    expect(body.errors?.['type']?.length).toBeGreaterThan(0);
  });
});

describe('header and footer widgets', () => {
  it('footer has three link columns and the copyright', async () => {
    const { status, body } = await api<Record<string, { title: string; menus: { name: string; url: string }[] } & { text?: string }>>('/api/widgets/v1/footer');
    expect(status).toBe(200);
    for (const key of ['footer_left_menu', 'footer_center_menu', 'footer_right_menu']) {
      const column = body.data?.[key];
      expect(column?.title).toBeTruthy();
      expect(column?.menus.length).toBeGreaterThan(2);
      for (const link of column?.menus ?? []) expect(link.url).toMatch(/^\//);
    }
    expect(body.data?.['copyright_widget']?.text).toContain('Brandshop');
  });

  it('header-sections returns tags at data[0].properties.tags', async () => {
    const { body } = await api<{ properties: { tags: { title: string; url: string }[] } }[]>('/api/widgets/v1/header-sections');
    const tags = body.data?.[0]?.properties.tags ?? [];
    expect(tags.length).toBeGreaterThan(4);
    expect(tags[0]).toEqual({ title: 'Новинки', url: expect.stringMatching(/^\/c\//) });
  });

  it('menus return header_top_left_menus.menus', async () => {
    const { body } = await api<{ header_top_left_menus: { menus: { name: string; url: string }[] } }>(
      '/api/theme/tlcommerce/v1/get-all-menus-for-ecommerce-home',
    );
    expect(body.data?.header_top_left_menus.menus).toContainEqual({ name: 'Контакты', url: '/i/4/contacts' });
  });

  it('every link in menus, tags and footer to an info page points at an existing page', async () => {
    const footer = await api<Record<string, { menus?: { url: string }[] }>>('/api/widgets/v1/footer');
    const menus = await api<{ header_top_left_menus: { menus: { url: string }[] } }>('/api/theme/tlcommerce/v1/get-all-menus-for-ecommerce-home');
    const urls = [
      ...Object.values(footer.body.data ?? {}).flatMap((c) => c.menus?.map((m) => m.url) ?? []),
      ...(menus.body.data?.header_top_left_menus.menus.map((m) => m.url) ?? []),
    ].filter((u) => u.startsWith('/i/'));
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) {
      const [, , id, slug] = url.split('/');
      const { body } = await api<Page>(`/api/theme/tlcommerce/v1/page/${id}`);
      expect(body.data?.slug, url).toBe(slug);
    }
  });
});

describe('GET /api/v1/ecommerce-core/mega-categories', () => {
  interface Cat {
    id: number;
    name: string;
    url: string;
    icon: string | null;
    level: number;
    childs: { data: Cat[] };
  }
  it('returns the three-level tree with icons and nested childs.data', async () => {
    const { status, body } = await api<Cat[]>('/api/v1/ecommerce-core/mega-categories');
    expect(status).toBe(200);
    const roots = body.data ?? [];
    // The generated departments, then the tests' own (sort 99).
    expect(roots.map((r) => r.name)).toEqual(['Женщинам', 'Мужчинам', 'Детям', 'Тест-отдел']);
    const fx = shared().catalog;
    expect(roots.at(-1)).toMatchObject({
      id: fx.root.id,
      level: 0,
      icon: null,
      url: `/c/${fx.root.id}/test-otdel`,
      childs: {
        data: [
          {
            id: fx.clothes.id,
            level: 1,
            parent_id: fx.root.id,
            childs: { data: [{ id: fx.dresses.id, name: 'Тест-платья', level: 2, url: `/c/${fx.dresses.id}/test-platya` }] },
          },
          { id: fx.shoes.id, level: 1, childs: { data: [] } },
        ],
      },
    });
    for (const root of roots.slice(0, -1)) {
      expect(root.level).toBe(0);
      expect(root.icon).toMatch(/^\/icons\/categories\/.+\.svg$/);
      expect(root.childs.data.map((d) => d.name)).toEqual(['Одежда', 'Обувь', 'Сумки', 'Украшения', 'Аксессуары']);
      for (const dep of root.childs.data) {
        expect(dep.level).toBe(1);
        expect(dep.childs.data.length).toBeGreaterThan(0);
        for (const leaf of dep.childs.data) {
          expect(leaf.level).toBe(2);
          expect(leaf.url).toBe(`/c/${leaf.id}/${leaf.url.split('/')[3]}`);
        }
      }
    }
  });

  it('icons are served', async () => {
    const res = await fetch(new URL('/icons/categories/women.svg', baseUrl()));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('svg');
  });
});
