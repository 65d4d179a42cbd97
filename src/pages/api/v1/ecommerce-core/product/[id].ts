// GET /api/v1/ecommerce-core/product/{id}: the product page's data with related products. docs/api.md.
import { z } from '~/lib/zod.ts';
import { idSchema } from '~/features/catalog/listing.ts';
import { productView } from '~/features/catalog/views.server.ts';
import { PUBLIC_CONTENT } from '~/lib/http/cache.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { notFound } from '~/lib/http/errors.ts';
import { productCardSchema, productDetailSchema } from '~/features/catalog/catalog.schema.ts';

export const GET = endpoint({
  summary: "The product page's data: sizes, images, attributes, related products",
  response: productDetailSchema.extend({ related: z.array(productCardSchema) }),
  params: z.object({ id: idSchema }),
  async handler({ params, locale }) {
    const view = await productView(locale, params.id);
    if (!view) throw notFound();
    const { product, related, meta_data, breadcrumbs } = view;
    return ok({ ...product, related }, { meta_data, breadcrumbs, headers: PUBLIC_CONTENT });
  },
});
