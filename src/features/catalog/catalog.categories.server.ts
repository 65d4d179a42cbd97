// A product's place in the category tree as SQL, for rules written per category (delivery's parcel
// defaults, marked goods): the slugs of its category and of each parent, nearest first.
import { sql, type SQL } from 'drizzle-orm';

/** The deepest tree the rules look up through (the catalogue's is three levels). */
const MAX_DEPTH = 10;

/**
 * A scalar subquery: `column` of the category of the product whose id `productId` is (a column or a value)
 * and of each of its parents, nearest first, as an array; null for a product without one.
 */
function categoryChainOf(productId: SQL, column: 'slug' | 'id'): SQL {
  const value = sql.raw(column);
  return sql`(WITH RECURSIVE chain AS (
                SELECT c.parent_id, c.${value}, 0 AS depth FROM categories c
                 WHERE c.id = (SELECT category_id FROM products WHERE id = ${productId})
                UNION ALL
                SELECT c.parent_id, c.${value}, chain.depth + 1 FROM chain JOIN categories c ON c.id = chain.parent_id
                 WHERE chain.depth < ${sql.raw(String(MAX_DEPTH))})
              SELECT array_agg(${value} ORDER BY depth) FROM chain)`;
}

/** The slugs of the product's category and of its parents, nearest first (a text[]; null without one). */
export const categorySlugsOf = (productId: SQL): SQL => categoryChainOf(productId, 'slug');

/** The ids of the product's category and of its parents (a promotion on a parent covers it): an int[], null without one. */
export const categoryIdsOf = (productId: SQL): SQL => categoryChainOf(productId, 'id');
