// Makes the judged query set (tests/search/judgments.json; how and why in tests/search/README.md):
// queries of the eight classes a Russian fashion shopper types, written from the catalogue itself (its
// brands, categories, colours, sizes, prices and articles), each with what it asks for, and graded labels
// for its pooled top-20 — the shop's own top 20 and the judge's — given by rules over the products' own
// fields, never by the search engine. Usage: node scripts/search-judge.ts (after `npm run build`).
import { writeFileSync } from 'node:fs';
import { otherLayout } from '../src/lib/keyboard.ts';
import { BRANDS } from '../src/lib/seed/vocabulary.ts';
import type { JudgedQuery, JudgmentFile, QueryClass } from '../tests/search/evaluate.ts';
import { FIXTURES, rankingOf, SEED_PRODUCTS, searchShop } from '../tests/search/shop.ts';

const API = '/api/v1/ecommerce-core';
const OUT = 'tests/search/judgments.json';

interface Item {
  id: number;
  name: string;
  brand: string;
  brandId: number;
  category: number;
  color: string | null;
  sizes: string[];
  price: number;
  article: string;
  popularity: number;
}

// A deterministic choice: the same catalogue makes the same set.
let state = 20261127;
const rnd = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;

const shop = await searchShop('search-judge');
try {
  const get = async <T>(path: string): Promise<T | null> => {
    const res = await fetch(shop.baseUrl + path);
    return res.ok ? (((await res.json()) as { data: T }).data ?? null) : null;
  };
  // The category tree: each category's root (the audience) and its ancestors.
  interface Node {
    id: number;
    name: string;
    childs?: { data: Node[] };
  }
  const parents = new Map<number, number[]>();
  const names = new Map<number, string>();
  const walk = (node: Node, path: number[]) => {
    names.set(node.id, node.name);
    parents.set(node.id, [...path, node.id]);
    for (const child of node.childs?.data ?? []) walk(child, [...path, node.id]);
  };
  for (const root of (await get<Node[]>(`${API}/mega-categories`)) ?? []) walk(root, []);

  // Every product on sale, as its page shows it.
  const items: Item[] = [];
  for (let id = 1, misses = 0; misses < 200; id++) {
    const p = await get<{
      id: number;
      name: string;
      brand: string;
      brand_url: string;
      category: { id: number };
      color: { name: string } | null;
      variants: { label: string; available: boolean }[];
      price: number;
      attributes: { name: string; value: string }[];
    }>(`${API}/product/${id}`);
    if (!p) {
      misses++;
      continue;
    }
    misses = 0;
    items.push({
      id: p.id,
      name: p.name,
      brand: p.brand,
      brandId: Number(/\/m\/(\d+)/.exec(p.brand_url)?.[1] ?? 0),
      category: p.category.id,
      color: p.color?.name.toLowerCase() ?? null,
      sizes: p.variants.filter((v) => v.available).map((v) => v.label),
      // Kopecks in the API; roubles as the shopper types them.
      price: p.price / 100,
      article: p.attributes.find((a) => a.name === 'Артикул')?.value ?? '',
      popularity: -items.length,
    });
  }
  const within = (item: Item, category: number) => (parents.get(item.category) ?? []).includes(category);
  // A category word names every category called so, under any audience ('кроссовки' for women, men and kids).
  const first = (name: string) => name.toLowerCase().split(/\s+/)[0] ?? '';
  const named = (item: Item, w: string) => (parents.get(item.category) ?? []).some((c) => first(names.get(c) ?? '') === w);

  const queries: JudgedQuery[] = [];
  const add = async (cls: QueryClass, text: string, intent: JudgedQuery['intent'], grade: (item: Item) => number) => {
    if (queries.some((q) => q.text === text)) return;
    const judged = items.map((item) => ({ item, g: grade(item) })).filter((x) => x.g > 0);
    const judgeTop = judged.sort((a, b) => b.g - a.g || b.item.popularity - a.item.popularity).slice(0, 20);
    const pool = new Set([...(await rankingOf(shop, text)), ...judgeTop.map((x) => x.item.id)]);
    const labels: Record<string, number> = {};
    for (const id of pool) {
      const item = items.find((i) => i.id === id);
      labels[String(id)] = item ? grade(item) : 0;
    }
    queries.push({ id: `${cls}-${queries.filter((q) => q.class === cls).length + 1}`, class: cls, text, intent, labels });
  };

  // Brands the catalogue has, with their Russian names from the seed's vocabulary.
  const brandIds = new Map<string, number>();
  for (const item of items) brandIds.set(item.brand, item.brandId);
  const brands = [...brandIds].map(([name, id]) => ({ name, id, ru: BRANDS.find((b) => b.name === name)?.nameRu ?? null }));
  const ofBrand = (id: number) => (item: Item) => (item.brandId === id ? 3 : 0);
  // A Russian spelling as shoppers simplify it: doubled letters single, «е» heard as «и».
  const misspelt = (ru: string) => {
    const single = ru.toLowerCase().replace(/(.)\1/g, '$1');
    return single !== ru.toLowerCase() ? single : ru.toLowerCase().replace(/е/, 'и');
  };
  for (const b of brands) {
    await add('brand', b.name.toLowerCase(), { brand: b.name }, ofBrand(b.id));
    if (b.ru) {
      await add('brand', b.ru.toLowerCase(), { brand: b.name }, ofBrand(b.id));
      await add('brand', misspelt(b.ru), { brand: b.name, transliterated: true }, ofBrand(b.id));
    }
  }
  // The leaves with products: a category's word as shoppers type it (the first word of its name).
  const word = (c: number) => first(names.get(c) ?? '');
  // Words that name a kind of goods (not «Без категории» and the like), once each.
  const leaves = [...new Map([...new Set(items.map((i) => i.category))].filter((c) => word(c).length > 3).map((c) => [word(c), c])).values()];
  const ofCategory = (c: number) => (item: Item) => (named(item, word(c)) ? 3 : 0);
  for (const b of brands.slice(0, 15)) {
    await add('layout', otherLayout(b.name.toLowerCase()), { brand: b.name, layout: 'ru' }, ofBrand(b.id));
    if (b.ru) await add('layout', otherLayout(b.ru.toLowerCase()), { brand: b.name, layout: 'en' }, ofBrand(b.id));
  }
  for (const c of leaves.slice(0, 15)) await add('layout', otherLayout(word(c)), { category: names.get(c) ?? '', layout: 'en' }, ofCategory(c));
  // Typos: a letter dropped, two swapped, one doubled — in category words and brands' Russian names.
  const typo = (w: string, kind: number) => {
    const at = 1 + Math.floor(rnd() * Math.max(1, w.length - 2));
    if (kind === 0) return w.slice(0, at) + w.slice(at + 1);
    if (kind === 1) return w.slice(0, at) + (w[at + 1] ?? '') + (w[at] ?? '') + w.slice(at + 2);
    return w.slice(0, at) + (w[at] ?? '') + w.slice(at);
  };
  for (const [k, c] of leaves.entries()) if (word(c).length >= 5) await add('typo', typo(word(c), k % 3), { category: names.get(c) ?? '' }, ofCategory(c));
  for (const [k, b] of brands.filter((x) => x.ru && x.ru.length >= 5).entries())
    await add('typo', typo((b.ru as string).toLowerCase(), k % 3), { brand: b.name }, ofBrand(b.id));
  // A category with a colour, sometimes a size: all of it exact, the category alone partial.
  const plural = (color: string) => color.replace(/(ый|ий|ой)$/, (e) => (e === 'ий' ? 'ие' : 'ые'));
  for (let n = 0; n < 40; n++) {
    const item = pick(items.filter((i) => i.color && i.sizes.length > 0 && word(i.category).length > 3));
    const c = item.category;
    const color = item.color as string;
    // Sizes as shoppers type them: shoe and clothing numbers, letter sizes; not «Единый размер».
    const typable = item.sizes.filter((z) => /^(\d{2}|XXS|XS|S|M|L|XL|XXL)$/.test(z));
    const size = n % 3 === 0 && typable.length > 0 ? pick(typable) : null;
    const text = [plural(color), word(c), size].filter(Boolean).join(' ');
    await add('attributes', text, { category: names.get(c) ?? '', color, ...(size ? { size } : {}) }, (i) => {
      if (!named(i, word(c))) return 0;
      const colour = i.color === color;
      const sized = size === null || i.sizes.includes(size);
      return colour && sized ? 3 : colour || (size !== null && sized) ? 2 : 1;
    });
  }
  // Articles from the tag: whole, in lower case, and an imported article's part.
  for (const item of items.filter((i) => i.article).slice(0, 30)) {
    const text = pick([item.article, item.article.toLowerCase()]);
    await add('article', text, { product: item.id }, (i) => (i.id === item.id ? 3 : 0));
  }
  // Audience: «женские», «мужские», «детские» with a category word, «для девочки» / «для мальчика».
  const roots = [...names].filter(([id]) => (parents.get(id) ?? []).length === 1);
  const audienceWord: Record<string, string> = { Женщинам: 'женские', Мужчинам: 'мужские', Детям: 'детские' };
  for (const c of new Set(items.map((i) => i.category))) {
    if (word(c).length <= 3) continue;
    const root = (parents.get(c) ?? [])[0] ?? 0;
    const adjective = audienceWord[names.get(root) ?? ''];
    if (!adjective) continue;
    await add('audience', `${adjective} ${word(c)}`, { audience: names.get(root) ?? '', category: names.get(c) ?? '' }, (i) =>
      named(i, word(c)) && within(i, root) ? 3 : within(i, root) || named(i, word(c)) ? 1 : 0,
    );
  }
  for (const [text, rootName] of [
    ['для девочки', 'Детям'],
    ['для мальчика', 'Детям'],
    ['женское', 'Женщинам'],
    ['мужское', 'Мужчинам'],
  ] as const) {
    const root = roots.find(([, name]) => name === rootName)?.[0];
    if (root) await add('audience', text, { audience: rootName }, (i) => (within(i, root) ? 2 : 0));
  }
  // Price words: a category up to a round sum near its middle price.
  for (const c of leaves) {
    const prices = items
      .filter((i) => named(i, word(c)))
      .map((i) => i.price)
      .sort((a, b) => a - b);
    if (prices.length < 3) continue;
    const limit = Math.max(1000, Math.round((prices[Math.floor(prices.length / 2)] as number) / 5000) * 5000);
    const text = pick([`${word(c)} до ${limit}`, `${word(c)} дешевле ${limit}`, `${word(c)} до ${limit / 1000} тысяч`]);
    await add('price', text, { category: names.get(c) ?? '', priceMax: limit }, (i) => (named(i, word(c)) ? (i.price <= limit ? 3 : 1) : 0));
  }
  // Nothing like it in a fashion shop: whatever comes back is not what was asked.
  for (const text of [
    'самокат',
    'телевизор',
    'удочка',
    'палатка',
    'смартфон',
    'холодильник',
    'велосипед',
    'ноутбук',
    'кофемашина',
    'пылесос',
    'шуруповёрт',
    'газонокосилка',
    'микроволновка',
    'аквариум',
    'гантели',
    'матрас',
    'чайник',
    'утюг',
    'принтер',
    'монитор',
    'дрель',
    'шины',
    'аккумулятор',
    'наушники',
    'кофеварка',
    'блендер',
    'мультиварка',
  ])
    await add('no-answer', text, { none: true }, () => 0);

  const file: JudgmentFile = { made: new Date().toISOString().slice(0, 10), catalogue: { seedProducts: SEED_PRODUCTS, fixtures: FIXTURES }, queries };
  writeFileSync(OUT, `${JSON.stringify(file, null, 1)}\n`);
  const counts = new Map<string, number>();
  for (const q of queries) counts.set(q.class, (counts.get(q.class) ?? 0) + 1);
  console.log(`${queries.length} queries written to ${OUT}: ${[...counts].map(([c, n]) => `${c} ${n}`).join(', ')}; ${items.length} products`);
} finally {
  await shop.stop();
}
