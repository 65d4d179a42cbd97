// Small factories for the data integration tests assert on, so no test leans on the ids or the luck of
// the generated catalogue. They write through drizzle with the schema's own types; the global setup
// runs them on the fresh database before the server opens it, and hands the ids to the tests.
import { eq } from 'drizzle-orm';
import type { Db } from '~/lib/db/client.ts';
import { brands, categories, colors, productAttributes, productImages, products, productVariants } from '~/lib/db/schema.ts';

type Category = typeof categories.$inferSelect;
type Brand = typeof brands.$inferSelect;
type Color = typeof colors.$inferSelect;

export async function makeCategory(db: Db, values: { name: string; slug: string; parent?: Category; sort?: number; icon?: string }): Promise<Category> {
  const [row] = await db
    .insert(categories)
    .values({
      name: values.name,
      slug: values.slug,
      parentId: values.parent?.id ?? null,
      level: values.parent ? values.parent.level + 1 : 0,
      sort: values.sort ?? 0,
      icon: values.icon ?? null,
    })
    .returning();
  return row as Category;
}

export async function makeBrand(db: Db, values: { name: string; nameRu: string; slug: string; country?: string }): Promise<Brand> {
  const [row] = await db
    .insert(brands)
    .values({ country: 'Италия', description: `${values.name}: бренд для тестов.`, ...values })
    .returning();
  return row as Brand;
}

export async function makeColor(db: Db, values: { name: string; slug: string; hex: string }): Promise<Color> {
  const [row] = await db.insert(colors).values(values).returning();
  return row as Color;
}

export interface SizeSpec {
  label: string;
  stock: number;
  min?: number;
  max?: number;
}

export interface ProductSpec {
  name: string;
  slug: string;
  brand: Brand;
  category: Category;
  color?: Color;
  /** Roubles. */
  price: number;
  priceOld?: number;
  rating?: number;
  popularity?: number;
  freeDelivery?: boolean;
  isActive?: boolean;
  createdAt?: Date;
  sizes?: SizeSpec[];
  attributes?: { name: string; value: string }[];
}

export interface MadeProduct {
  id: number;
  slug: string;
  name: string;
  url: string;
  variants: { code: string; label: string; stock: number; minItem: number; maxItem: number }[];
}

export async function makeProduct(db: Db, spec: ProductSpec): Promise<MadeProduct> {
  const [row] = await db
    .insert(products)
    .values({
      name: spec.name,
      slug: spec.slug,
      brandId: spec.brand.id,
      categoryId: spec.category.id,
      colorId: spec.color?.id ?? null,
      description: `${spec.name} ${spec.brand.name}.`,
      price: spec.price * 100,
      priceOld: spec.priceOld === undefined ? null : spec.priceOld * 100,
      // A product has no reviews unless a test gives it a rating (its figures are approved reviews' own, issue 57).
      rating: spec.rating ?? 0,
      reviewsCount: spec.rating === undefined ? 0 : 3,
      popularity: spec.popularity ?? 0,
      freeDelivery: spec.freeDelivery ?? false,
      isActive: spec.isActive ?? true,
      ...(spec.createdAt ? { createdAt: spec.createdAt } : {}),
    })
    .returning({ id: products.id });
  const id = (row as { id: number }).id;
  const variants = (spec.sizes ?? [{ label: 'Единый размер', stock: 5 }]).map((s, sort) => ({
    productId: id,
    code: `fx-${id}-${sort}`,
    label: s.label,
    sort,
    stock: s.stock,
    minItem: s.min ?? 1,
    maxItem: s.max ?? 5,
  }));
  await db.insert(productVariants).values(variants);
  await db
    .insert(productImages)
    .values({ productId: id, position: 0, urlTemplate: '/img/p/dress-black-1-w{w}.webp', widths: [360, 720], width: 720, height: 960, alt: spec.name });
  if (spec.attributes?.length) await db.insert(productAttributes).values(spec.attributes.map((a, position) => ({ productId: id, position, ...a })));
  return { id, slug: spec.slug, name: spec.name, url: `/p/${id}/${spec.slug}`, variants };
}

export async function setStock(db: Db, variantCode: string, stock: number): Promise<void> {
  await db.update(productVariants).set({ stock }).where(eq(productVariants.code, variantCode));
}

/**
 * The catalogue the catalogue tests assert on, beside the generated one and under its own root, so its
 * counts are exact: 'Тест-отдел' → 'Тест-одежда' → 'Тест-платья' (12 dresses) and 'Тест-отдел' →
 * 'Тест-обувь' (6 pairs with children's half sizes), two brands, two colours, and one inactive product.
 */
export interface CatalogFixture {
  root: Category;
  clothes: Category;
  dresses: Category;
  shoes: Category;
  brands: { alpha: Brand; beta: Brand };
  colors: { ruby: Color; azure: Color };
  dressProducts: MadeProduct[];
  shoeProducts: MadeProduct[];
  inactive: MadeProduct;
  /** A dress with one size of 2 left and a line maximum of 5: the product page caps it at 2. */
  scarce: MadeProduct;
}

const DAY = 86_400_000;

export async function makeCatalogFixture(db: Db): Promise<CatalogFixture> {
  const root = await makeCategory(db, { name: 'Тест-отдел', slug: 'test-otdel', sort: 99 });
  const clothes = await makeCategory(db, { name: 'Тест-одежда', slug: 'test-odezhda', parent: root });
  const dresses = await makeCategory(db, { name: 'Тест-платья', slug: 'test-platya', parent: clothes });
  const shoes = await makeCategory(db, { name: 'Тест-обувь', slug: 'test-obuv', parent: root, sort: 1 });
  const alpha = await makeBrand(db, { name: 'Alphatest', nameRu: 'Альфатест', slug: 'alphatest' });
  const beta = await makeBrand(db, { name: 'Betatest', nameRu: 'Бетатест', slug: 'betatest', country: 'Франция' });
  const ruby = await makeColor(db, { name: 'Рубиновый', slug: 'rubinovyj', hex: '#9b111e' });
  const azure = await makeColor(db, { name: 'Лазурный', slug: 'lazurnyj', hex: '#007fff' });
  const epoch = Date.UTC(2026, 9, 1);

  // Dress k: brand alpha for k < 8, colour ruby for even k, price 1 000 × (k + 1), 20 % off for k % 3 = 0,
  // free delivery for k < 4, rating 4.8 for k % 4 = 0, sizes S/M/L with M sold out for k % 2 = 1.
  const dressProducts: MadeProduct[] = [];
  for (let k = 0; k < 12; k++) {
    const price = 1000 * (k + 1);
    dressProducts.push(
      await makeProduct(db, {
        name: `Платье тестовое ${k + 1}`,
        slug: `plate-testovoe-${k + 1}`,
        brand: k < 8 ? alpha : beta,
        category: dresses,
        color: k % 2 === 0 ? ruby : azure,
        price,
        ...(k % 3 === 0 ? { priceOld: price * 1.25 } : {}),
        freeDelivery: k < 4,
        rating: k % 4 === 0 ? 4.8 : 4.1,
        popularity: 100 - k,
        createdAt: new Date(epoch + k * DAY),
        sizes: [
          { label: 'S', stock: 3 },
          { label: 'M', stock: k % 2 === 1 ? 0 : 4 },
          { label: 'L', stock: 6 },
        ],
        attributes: [{ name: 'Материал', value: 'Хлопок' }],
      }),
    );
  }
  // Shoes: children's half sizes (spec §2 sizes page) for the first three pairs.
  const shoeProducts: MadeProduct[] = [];
  for (let k = 0; k < 6; k++) {
    shoeProducts.push(
      await makeProduct(db, {
        name: `Кроссовки тестовые ${k + 1}`,
        slug: `krossovki-testovye-${k + 1}`,
        brand: k % 2 === 0 ? alpha : beta,
        category: shoes,
        color: azure,
        price: 5000 + 500 * k,
        popularity: 50 - k,
        createdAt: new Date(epoch + (20 + k) * DAY),
        sizes:
          k < 3
            ? [
                { label: '16,5', stock: 2 },
                { label: '17', stock: 2 },
              ]
            : [
                { label: '40', stock: 1 },
                { label: '41', stock: 1 },
              ],
      }),
    );
  }
  const inactive = await makeProduct(db, {
    name: 'Платье снятое с продажи',
    slug: 'plate-snyatoe',
    brand: alpha,
    category: dresses,
    color: ruby,
    price: 999,
    isActive: false,
  });
  const scarce = await makeProduct(db, {
    name: 'Платье последнее',
    slug: 'plate-poslednee',
    brand: beta,
    category: dresses,
    color: ruby,
    price: 15_000,
    popularity: 0,
    createdAt: new Date(epoch - DAY),
    sizes: [
      { label: 'XS', stock: 2, max: 5 },
      { label: 'XL', stock: 0 },
    ],
  });
  return { root, clothes, dresses, shoes, brands: { alpha, beta }, colors: { ruby, azure }, dressProducts, shoeProducts, inactive, scarce };
}
