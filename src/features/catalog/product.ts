// The product page's shape (GET /api/v1/ecommerce-core/product/{id}) and what is derived from it.
import type { ProductCard, ProductImage } from './catalog.ts';

/** Sizes with this many or fewer left say so. */
export const LOW_STOCK = 3;
export const SIZE_CHART_URL = '/i/12/razmery';
export const DELIVERY_INFO_URL = '/i/9/o-dostavke';

export interface ProductVariant {
  /** spec §3 variant_code: what the cart line refers to. */
  code: string;
  label: string;
  available: boolean;
  /** Set when only a few are left. */
  left: number | null;
  min_item: number;
  /** The line maximum, never above what is in stock. */
  max_item: number;
}

export interface ProductDetail extends Omit<ProductCard, 'image'> {
  slug: string;
  description: string;
  brand_url: string;
  brand_country: string;
  category: { id: number; name: string; url: string };
  color: { id: number; name: string; hex: string } | null;
  reviews_count: number;
  images: ProductImage[];
  variants: ProductVariant[];
  in_stock: boolean;
  attributes: { name: string; value: string }[];
}

/** Kopecks to the decimal roubles schema.org expects ("12990.00"). */
function schemaPrice(kopecks: number): string {
  return (kopecks / 100).toFixed(2);
}

/** schema.org Product with an Offer, so search engines show price and availability. */
export function productJsonLd(p: ProductDetail, origin: string): Record<string, unknown> {
  const url = new URL(p.url, origin).href;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    description: p.description,
    sku: String(p.id),
    url,
    image: p.images.map((i) => new URL(i.src, origin).href),
    brand: { '@type': 'Brand', name: p.brand },
    category: p.category.name,
    ...(p.color ? { color: p.color.name } : {}),
    ...(p.reviews_count > 0 ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: p.rating.toFixed(1), reviewCount: p.reviews_count } } : {}),
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
