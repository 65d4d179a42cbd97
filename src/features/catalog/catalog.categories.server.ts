// A product's place in the category tree as SQL, for rules written per category (delivery's parcel
// defaults, marked goods): the slugs of its category and of each parent, nearest first.
import { sql, type SQL } from 'drizzle-orm';

/** The deepest tree the rules look up through (the catalogue's is three levels). */
const MAX_DEPTH = 10;

/**
 * A scalar subquery: the slugs of the category of the product whose id `productId` is (a column or a
 * value) and of its parents, nearest first, as a text[]; null for a product without one.
 */
export function categorySlugsOf(productId: SQL): SQL {
  return sql`(WITH RECURSIVE chain AS (
                SELECT c.parent_id, c.slug, 0 AS depth FROM categories c
                 WHERE c.id = (SELECT category_id FROM products WHERE id = ${productId})
                UNION ALL
                SELECT c.parent_id, c.slug, chain.depth + 1 FROM chain JOIN categories c ON c.id = chain.parent_id
                 WHERE chain.depth < ${sql.raw(String(MAX_DEPTH))})
              SELECT array_agg(slug ORDER BY depth) FROM chain)`;
}

/** A scalar subquery: the ids of the product's category and of each parent (a promotion on a parent covers it), as an int[]. */
export function categoryIdsOf(productId: SQL): SQL {
  return sql`(WITH RECURSIVE chain AS (
                SELECT c.id, c.parent_id, 0 AS depth FROM categories c
                 WHERE c.id = (SELECT category_id FROM products WHERE id = ${productId})
                UNION ALL
                SELECT c.id, c.parent_id, chain.depth + 1 FROM chain JOIN categories c ON c.id = chain.parent_id
                 WHERE chain.depth < ${sql.raw(String(MAX_DEPTH))})
              SELECT coalesce(array_agg(id ORDER BY depth), '{}') FROM chain)`;
}
