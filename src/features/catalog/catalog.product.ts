// The product page's shape (GET /api/v1/ecommerce-core/product/{id}) and what is derived from it.
import { plainText } from '~/lib/html.ts';
import type { ProductDetail } from './catalog.schema.ts';

/** Sizes with this many or fewer left say so. */
export const LOW_STOCK = 3;
export const SIZE_CHART_URL = '/i/12/razmery';
export const DELIVERY_INFO_URL = '/i/9/o-dostavke';

export type { ProductDetail, ProductVariant } from './catalog.schema.ts';

/** Kopecks to the decimal roubles schema.org expects ("12990.00"). */
function schemaPrice(kopecks: number): string {
  return (kopecks / 100).toFixed(2);
}

/** A review as schema.org's Product rich result reads it (issue 57): only approved ones are ever passed. */
export interface JsonLdReview {
  author: string;
  rating: number;
  published_at: string;
  body: string;
}

/**
 * schema.org Product with an Offer, so search engines show price and availability; with approved reviews, their
 * AggregateRating and the reviews shown on the page as Review items — none where there are none.
 */
export function productJsonLd(p: ProductDetail, origin: string, reviews: readonly JsonLdReview[] = []): Record<string, unknown> {
  const url = new URL(p.url, origin).href;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    description: plainText(p.description),
    sku: String(p.id),
    url,
    image: p.images.map((i) => new URL(i.src, origin).href),
    brand: { '@type': 'Brand', name: p.brand },
    category: p.category.name,
    ...(p.color ? { color: p.color.name } : {}),
    ...(p.reviews_count > 0
      ? {
          aggregateRating: { '@type': 'AggregateRating', ratingValue: p.rating.toFixed(1), reviewCount: p.reviews_count, bestRating: 5, worstRating: 1 },
          ...(reviews.length > 0
            ? {
                review: reviews.map((r) => ({
                  '@type': 'Review',
                  author: { '@type': 'Person', name: r.author },
                  datePublished: r.published_at.slice(0, 10),
                  reviewRating: { '@type': 'Rating', ratingValue: r.rating, bestRating: 5, worstRating: 1 },
                  ...(r.body ? { reviewBody: r.body } : {}),
                })),
              }
            : {}),
        }
      : {}),
    offers: {
      '@type': 'Offer',
      url,
      priceCurrency: 'RUB',
      price: schemaPrice(p.price),
      availability: p.in_stock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}
