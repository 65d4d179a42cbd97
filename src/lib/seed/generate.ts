// Builds the seeded catalogue as plain rows. Every product is generated from its own index and the
// seed, so the same seed always gives the same catalogue, whatever the batch size.
import type { brands, categories, colors, productAttributes, productImages, products, productVariants } from '../db/schema.ts';
import { slugify } from '../slug.ts';
import { colorsFor, IMAGE_SIZE, IMAGE_VIEWS, IMAGE_WIDTHS, imageUrlTemplate } from './images.ts';
import { Random } from './random.ts';
import {
  MATERIAL_NOMINATIVE,
  BRANDS,
  CARE,
  CATEGORY_TREE,
  COLORS,
  DESCRIPTION_DETAILS,
  DESCRIPTION_OPENERS,
  FITS,
  MADE_IN,
  MODEL_SYLLABLES,
  type BrandDef,
  type Department,
  type LeafDef,
} from './vocabulary.ts';

// Rows as the schema types them: a renamed or retyped column breaks the generator at compile time.
type Of<T extends { $inferSelect: unknown }> = T['$inferSelect'];
export type BrandRow = Omit<Of<typeof brands>, 'createdAt'>;
export type CategoryRow = Omit<Of<typeof categories>, 'externalId'>;
export type ColorRow = Of<typeof colors>;

export interface LeafInfo {
  id: number;
  def: LeafDef;
  department: Department;
  audienceName: string;
}

type Child<T extends { $inferSelect: unknown }> = Omit<Of<T>, 'id' | 'productId'>;
// The import's columns (docs/import.md) stay at their defaults for generated products.
export type ProductRow = Omit<
  Of<typeof products>,
  | 'colorId'
  | 'discountPercent'
  | 'isActive'
  | 'searchText'
  | 'searchVector'
  | 'nameVector'
  | 'descriptionVector'
  | 'tokenVector'
  | 'updatedAt'
  | 'externalId'
  | 'salesNotes'
  | 'importHash'
  | 'weightG'
  | 'lengthCm'
  | 'widthCm'
  | 'heightCm'
  | 'marked'
> & {
  colorId: number;
  variants: Omit<Child<typeof productVariants>, 'externalId' | 'barcode'>[];
  images: Omit<Child<typeof productImages>, 'color' | 'sourceUrl'>[];
  attributes: Child<typeof productAttributes>[];
  /** The demo catalogue's reviews (issue 57): approved, with no purchase behind them (`source` demo). */
  reviews: DemoReview[];
};

export interface DemoReview {
  author: string;
  rating: number;
  fit: 'small' | 'true' | 'large' | null;
  sizeLabel: string;
  liked: string;
  disliked: string;
  publishedAt: Date;
}

const REVIEW_AUTHORS = ['Анна', 'Мария', 'Екатерина', 'Ольга', 'Ирина', 'Дарья', 'Алексей', 'Дмитрий', 'Сергей', 'Наталья', 'Юлия', 'Павел'];
const REVIEW_LIKED = [
  'Качество отличное, швы ровные, материал приятный.',
  'Цвет как на фото, смотрится дороже своей цены.',
  'Пришло быстро и в фирменной упаковке, всё на месте.',
  'Удобно с первого дня, ничего не натирает.',
  'Оригинал: бирки, чек и пыльник на месте.',
];
const REVIEW_DISLIKED = ['', '', 'Доставка заняла почти три недели.', 'Немного мнётся.', 'Хотелось бы больше вариантов цвета.'];
/** What a product's fit reviews lean to: how most of a model's sizes run (the rest say otherwise). */
const FIT_LEANS = ['true', 'true', 'small', 'large'] as const;

/**
 * A product's demo reviews, from a stream of their own (the catalogue's own draws stay as they were): about
 * the made-up figures the seed had before, one to eight reviews around its rating, the fit for clothes and shoes.
 */
function demoReviews(
  seed: number,
  id: number,
  base: { rating: number; count: number; sizes: readonly string[]; fits: boolean; createdAt: Date },
): DemoReview[] {
  if (base.count === 0) return [];
  const rnd = new Random((seed ^ Math.imul(id, 0x85ebca6b) ^ 0x5bd1e995) >>> 0);
  const lean = rnd.pick(FIT_LEANS);
  return Array.from({ length: Math.min(8, 1 + Math.floor(base.count / 34)) }, (_, i) => {
    const rating = Math.max(1, Math.min(5, Math.round(base.rating + (rnd.next() - 0.5) * 1.6)));
    const fit = !base.fits ? null : rnd.chance(0.7) ? lean : rnd.pick(['small', 'true', 'large'] as const);
    return {
      author: rnd.pick(REVIEW_AUTHORS),
      rating,
      fit,
      sizeLabel: rnd.pick(base.sizes),
      liked: rnd.pick(REVIEW_LIKED),
      disliked: rating <= 3 ? rnd.pick(REVIEW_DISLIKED.filter(Boolean)) : rnd.pick(REVIEW_DISLIKED),
      publishedAt: new Date(base.createdAt.getTime() + (10 + i * 9 + rnd.int(0, 8)) * DAY),
    };
  });
}

/** What the reviews triggers keep on a product (migration 0038), computed as they do: the average to two places. */
export function reviewFigures(reviews: readonly DemoReview[]) {
  const n = reviews.length;
  return {
    rating: n === 0 ? 0 : Math.round((reviews.reduce((s, r) => s + r.rating, 0) / n) * 100) / 100,
    reviewsCount: n,
    fitSmall: reviews.filter((r) => r.fit === 'small').length,
    fitTrue: reviews.filter((r) => r.fit === 'true').length,
    fitLarge: reviews.filter((r) => r.fit === 'large').length,
  };
}

export interface Skeleton {
  brands: BrandRow[];
  categories: CategoryRow[];
  colors: ColorRow[];
  leaves: LeafInfo[];
}

// Dates are relative to a fixed day so the same seed gives the same data whenever it runs.
const CATALOGUE_EPOCH = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;

function brandDescription(b: BrandDef): string {
  return `${b.name} — модный дом, основанный в стране: ${b.country}. В каталоге — оригинальные вещи ${b.name} из актуальных коллекций с доставкой по России.`;
}

export function buildSkeleton(): Skeleton {
  const brands: BrandRow[] = BRANDS.map((b, i) => ({
    id: i + 1,
    name: b.name,
    slug: slugify(b.name),
    nameRu: b.nameRu,
    country: b.country,
    description: brandDescription(b),
    isPopular: Boolean(b.popular),
  }));
  const colors: ColorRow[] = COLORS.map((c, i) => ({ id: i + 1, name: c.name, slug: c.slug, hex: c.hex }));
  const categories: CategoryRow[] = [];
  const leaves: LeafInfo[] = [];
  let nextId = 1;
  CATEGORY_TREE.forEach((aud, ai) => {
    const audId = nextId++;
    categories.push({ id: audId, parentId: null, name: aud.name, slug: aud.slug, icon: aud.icon, level: 0, sort: ai });
    aud.departments.forEach((dep, di) => {
      const depId = nextId++;
      categories.push({ id: depId, parentId: audId, name: dep.name, slug: dep.slug, icon: dep.icon, level: 1, sort: di });
      dep.leaves.forEach((lf, li) => {
        const id = nextId++;
        categories.push({ id, parentId: depId, name: lf.name, slug: lf.slug, icon: null, level: 2, sort: li });
        leaves.push({ id, def: lf, department: dep.department, audienceName: aud.name });
      });
    });
  });
  return { brands, categories, colors, leaves };
}

/** The attribute's value: the material in the nominative, capitalised ('замши' → 'Замша'). */
export function materialName(genitive: string): string {
  const nominative = MATERIAL_NOMINATIVE[genitive] ?? genitive;
  return nominative.charAt(0).toUpperCase() + nominative.slice(1);
}

function modelName(rnd: Random): string {
  const parts = rnd.int(2, 3);
  let s = '';
  for (let i = 0; i < parts; i++) s += rnd.pick(MODEL_SYLLABLES);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Luxury prices look round: 84 500 ₽ rather than 84 513 ₽. */
function roundPrice(roubles: number): number {
  const step = roubles >= 100_000 ? 1000 : roubles >= 20_000 ? 500 : 100;
  return Math.max(step, Math.round(roubles / step) * step);
}

const TIER_MULTIPLIER = { 1: 0.8, 2: 1.15, 3: 1.6 } as const;
const DISCOUNTS = [10, 15, 20, 25, 30, 40, 50] as const;

export function makeProductGenerator(seed: number, skeleton: Skeleton) {
  const { brands, leaves, colors } = skeleton;
  const brandsByDepartment = new Map<Department, { row: BrandRow; def: BrandDef }[]>();
  BRANDS.forEach((def, i) => {
    for (const d of def.makes) {
      const list = brandsByDepartment.get(d) ?? [];
      list.push({ row: brands[i] as BrandRow, def });
      brandsByDepartment.set(d, list);
    }
  });
  const colorIdBySlug = new Map(colors.map((c) => [c.slug, c.id]));

  return function generateProduct(id: number): ProductRow {
    // Mixing the id into the seed keeps products independent of each other.
    const rnd = new Random((seed ^ Math.imul(id, 0x9e3779b1)) >>> 0);
    const leaf = rnd.weighted(leaves, (l) => l.def.weight);
    const type = leaf.def.type;
    const candidates = brandsByDepartment.get(leaf.department) ?? [];
    const brand = rnd.weighted(candidates, (b) => (b.def.popular ? 2 : 1));
    const color = rnd.pick(colorsFor(type.image));
    const material = rnd.pick(type.materials);
    const style = rnd.chance(0.75) ? rnd.pick(type.styles) : '';
    const model = type.modelNames && rnd.chance(0.7) ? modelName(rnd) : '';

    const name = [type.noun, model, style, `из ${material}`].filter(Boolean).join(' ');
    const [lo, hi] = type.price;
    const price = roundPrice((lo + rnd.next() ** 1.6 * (hi - lo)) * TIER_MULTIPLIER[brand.def.tier]);
    let priceOld: number | null = null;
    if (rnd.chance(0.3)) {
      const d = rnd.pick(DISCOUNTS);
      priceOld = roundPrice(price / (1 - d / 100));
      if (priceOld <= price) priceOld = null;
    }
    // Drawn as before (the rest of the product's draws follow them); the reviews are made from them.
    const hasReviews = rnd.chance(0.85);
    const madeUpRating = hasReviews ? Math.round((3.4 + rnd.next() ** 0.5 * 1.6) * 10) / 10 : 0;
    const madeUpCount = hasReviews ? rnd.int(1, 240) : 0;
    // A long tail: most products are rarely bought, a few are best-sellers.
    const popularity = Math.floor(1000 * rnd.next() ** 4);
    const freeDelivery = price >= 50_000 || rnd.chance(0.25);
    const createdAt = new Date(CATALOGUE_EPOCH - rnd.int(0, 364) * DAY - rnd.int(0, DAY - 1));

    const madeIn = rnd.chance(0.7) ? brand.def.country : rnd.pick(MADE_IN);
    const article = `${brand.row.slug.slice(0, 3).toUpperCase()}${String(id).padStart(6, '0')}`;
    const oneSize = type.sizes.length === 1;
    const sizes = oneSize ? type.sizes : type.sizes.filter(() => rnd.chance(0.85));
    const sizeLabels = sizes.length > 0 ? sizes : [type.sizes[0] as string];
    const maxItem = type.maxItem ?? rnd.pick([3, 5, 5, 10]);
    const variants = sizeLabels.map((label, sort) => ({
      code: `${id}-${slugify(label) || 'os'}`,
      label,
      sort,
      // About one size in six is sold out, so availability is visible in the catalogue.
      stock: rnd.chance(0.17) ? 0 : rnd.int(1, 15),
      minItem: 1,
      maxItem,
    }));

    const fullName = `${name}, ${brand.row.name}`;
    const images = IMAGE_VIEWS.map((view, position) => ({
      position,
      urlTemplate: imageUrlTemplate(type.image, color.slug, view),
      widths: [...IMAGE_WIDTHS],
      width: IMAGE_SIZE.width,
      height: IMAGE_SIZE.height,
      alt: position === 0 ? fullName : `${fullName} — деталь`,
    }));

    const attributes: { name: string; value: string }[] = [
      { name: 'Материал', value: materialName(material) },
      { name: 'Страна производства', value: madeIn },
      { name: 'Артикул', value: article },
    ];
    if (leaf.department === 'clothing') attributes.push({ name: 'Крой', value: rnd.pick(FITS) });
    if (leaf.department === 'jewellery' && material.includes('золот')) attributes.push({ name: 'Проба', value: rnd.pick(['585', '750']) });
    if (leaf.department === 'bags') attributes.push({ name: 'Размеры', value: `${rnd.int(18, 40)} × ${rnd.int(12, 30)} × ${rnd.int(6, 16)} см` });
    attributes.push({ name: 'Уход', value: rnd.pick(CARE) });

    const description = [
      `${rnd.pick(DESCRIPTION_OPENERS)} ${brand.row.name}: ${name.charAt(0).toLowerCase()}${name.slice(1)}.`,
      rnd.pick(DESCRIPTION_DETAILS),
      leaf.department === 'clothing' ? `${rnd.pick(FITS)}; рекомендуем выбирать ваш привычный размер.` : '',
      `Оригинальный товар: каждую вещь проверяют перед отправкой, срок доставки — в среднем 14 дней.`,
    ]
      .filter(Boolean)
      .join(' ');

    const reviews = demoReviews(seed, id, {
      rating: madeUpRating,
      count: madeUpCount,
      sizes: sizeLabels,
      fits: leaf.department === 'clothing' || leaf.department === 'shoes',
      createdAt,
    });
    const figures = reviewFigures(reviews);
    return {
      id,
      brandId: brand.row.id,
      categoryId: leaf.id,
      colorId: colorIdBySlug.get(color.slug) as number,
      name,
      slug: slugify(`${type.noun} ${brand.row.name} ${model} ${style}`),
      // The tag's article, as the attribute shows it: searchable whole (issue 40).
      vendorCode: article,
      description,
      price: price * 100,
      priceOld: priceOld === null ? null : priceOld * 100,
      rating: figures.rating,
      reviewsCount: figures.reviewsCount,
      fitSmall: figures.fitSmall,
      fitTrue: figures.fitTrue,
      fitLarge: figures.fitLarge,
      popularity,
      freeDelivery,
      createdAt,
      variants,
      images,
      reviews,
      attributes: attributes.map((a, position) => ({ ...a, position })),
    };
  };
}
