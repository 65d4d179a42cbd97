// The product page and GET /api/v1/ecommerce-core/product/{id}: related products are picked from the
// catalogue index first, so one query brings the product with its images, sizes and attributes and the
// related cards (one round trip: on PGlite each costs about a millisecond of the server's own thread).
import { getDatabase } from '~/lib/db/index.ts';
import { CURRENCY_SYMBOL, formatPrice } from '~/lib/format.ts';
import type { Crumb, MetaData } from '~/lib/http/envelope.ts';
import { getCatalogIndex, type CatalogIndex } from './catalog-index.server.ts';
import { topPositions } from './catalog-query.server.ts';
import { cardFromJson, cardsJsonSql, imageFromJson, jsonRows, num, str } from './catalog.server.ts';
import { brandUrl, categoryUrl, productUrl, type ProductCard } from './catalog.ts';
import { getCategoryContext } from './listing.server.ts';
import { AVERAGE_DELIVERY_DAYS, LOW_STOCK, type ProductDetail } from './product.ts';

const RELATED = 8;

/** The product and the cards of `relatedIds` (in that order), in one query. */
export async function getProduct(id: number, relatedIds: readonly number[] = []): Promise<{ product: ProductDetail; related: ProductCard[] } | null> {
  const database = await getDatabase();
  const { rows: found } = await database.query(
    `SELECT p.id, p.name, p.slug, p.description, p.price, p.price_old, p.discount_percent, p.rating, p.reviews_count, p.free_delivery,
            b.id AS brand_id, b.name AS brand, b.slug AS brand_slug, b.country AS brand_country,
            c.id AS category_id, c.name AS category, c.slug AS category_slug,
            co.id AS color_id, co.name AS color, co.hex AS color_hex,
            (SELECT json_agg(json_build_object('t', i.url_template, 'ws', i.widths, 'w', i.width, 'h', i.height, 'alt', i.alt) ORDER BY i.position)
               FROM product_images i WHERE i.product_id = p.id) AS images,
            (SELECT json_agg(json_build_object('code', v.code, 'label', v.label, 'stock', v.stock, 'min', v.min_item, 'max', v.max_item) ORDER BY v.sort, v.id)
               FROM product_variants v WHERE v.product_id = p.id) AS variants,
            (SELECT json_agg(json_build_object('name', a.name, 'value', a.value) ORDER BY a.position, a.id)
               FROM product_attributes a WHERE a.product_id = p.id) AS attributes,
            ${cardsJsonSql('$2')} AS related
       FROM products p
       JOIN brands b ON b.id = p.brand_id
       JOIN categories c ON c.id = p.category_id
       LEFT JOIN colors co ON co.id = p.color_id
      WHERE p.id = $1 AND p.is_active`,
    [id, [...relatedIds]],
  );
  const r = found[0];
  if (!r) return null;
  const name = str(r['name']);
  const variants = jsonRows(r['variants']).map((v) => {
    const stock = num(v['stock']);
    return {
      code: str(v['code']),
      label: str(v['label']),
      available: stock > 0,
      left: stock > 0 && stock <= LOW_STOCK ? stock : null,
      min_item: num(v['min']),
      // A line can never ask for more than is in stock.
      max_item: Math.max(0, Math.min(num(v['max']), stock)),
    };
  });
  const product: ProductDetail = {
    id,
    name,
    slug: str(r['slug']),
    url: productUrl(id, str(r['slug'])),
    description: str(r['description']),
    brand: str(r['brand']),
    brand_id: num(r['brand_id']),
    brand_url: brandUrl(num(r['brand_id']), str(r['brand_slug'])),
    brand_country: str(r['brand_country']),
    category: { id: num(r['category_id']), name: str(r['category']), url: categoryUrl(num(r['category_id']), str(r['category_slug'])) },
    color: r['color_id'] === null ? null : { id: num(r['color_id']), name: str(r['color']), hex: str(r['color_hex']) },
    price: num(r['price']),
    price_old: r['price_old'] === null ? null : num(r['price_old']),
    discount_percent: num(r['discount_percent']),
    currency_symbol: CURRENCY_SYMBOL,
    rating: num(r['rating']),
    reviews_count: num(r['reviews_count']),
    free_delivery: Boolean(r['free_delivery']),
    images: jsonRows(r['images']).flatMap((i) => imageFromJson(i, name) ?? []),
    variants,
    in_stock: variants.some((v) => v.available),
    attributes: jsonRows(r['attributes']).map((a) => ({ name: str(a['name']), value: str(a['value']) })),
  };
  return { product, related: jsonRows(r['related']).map(cardFromJson) };
}

/** Other products of the same brand in the same category, most popular first; the category fills in when the brand has few. */
function relatedIds(index: CatalogIndex, productId: number): number[] {
  const at = index.positionOf(productId);
  if (at < 0) return [];
  const { brand, category, ids, orders } = index;
  const [b, c] = [brand[at], category[at]];
  const sameBrand = topPositions(orders.popular, RELATED, (i) => brand[i] === b && category[i] === c && i !== at);
  const fill = sameBrand.length >= RELATED / 2 ? [] : topPositions(orders.popular, RELATED - sameBrand.length, (i) => category[i] === c && brand[i] !== b);
  return [...sameBrand, ...fill].map((i) => ids[i] as number);
}

export interface ProductPage {
  product: ProductDetail;
  related: ProductCard[];
  meta_data: MetaData;
  breadcrumbs: Crumb[];
}

/** Everything the product page and its API call show, in two round trips at most. */
export async function getProductPage(id: number): Promise<ProductPage | null> {
  const index = await getCatalogIndex();
  const found = await getProduct(id, relatedIds(index, id));
  if (!found) return null;
  const { product, related } = found;
  const category = await getCategoryContext(product.category.id);
  const breadcrumbs: Crumb[] = [{ name: 'Главная', url: '/' }, ...(category?.path ?? []).map((p) => ({ name: p.name, url: p.url })), { name: product.name }];
  return {
    product,
    related,
    breadcrumbs,
    meta_data: {
      title: `${product.brand} ${product.name} — купить в интернет-магазине Brandshop`,
      description: `${product.name} ${product.brand} за ${formatPrice(product.price)}${product.discount_percent > 0 ? ` (скидка ${product.discount_percent}%)` : ''}. Оригинал, доставка по России за ${AVERAGE_DELIVERY_DAYS} дней в среднем.`,
    },
  };
}
