// The page types the measurement scripts visit (npm run lighthouse, first-round-trip, fonts), each with an
// address on the running shop: home, a category, a brand, search results, a product, the brands, an info
// page, a blog post and the cart.
async function data<T>(base: string, path: string, method = 'GET'): Promise<T> {
  return ((await (await fetch(new URL(path, base), { method })).json()) as { data: T }).data;
}

/** Their names, in the order they are measured: what a command's --page may name before a shop is there to ask. */
export const PAGE_TYPE_NAMES = ['home', 'category', 'brand', 'search', 'product', 'brands', 'info page', 'blog post', 'cart'] as const;
export type PageTypeName = (typeof PAGE_TYPE_NAMES)[number];

export async function pageTypes(base: string): Promise<[name: PageTypeName, path: string][]> {
  const listing = await data<{ products: { url: string }[] }>(base, '/api/v1/ecommerce-core/products?category=3&per_page=1');
  const blogs = await data<{ posts: { url: string }[] }>(base, '/api/v1/ecommerce-core/blogs');
  const tree = await data<{ childs: { data: { childs: { data: { url: string }[] } }[] } }[]>(base, '/api/v1/ecommerce-core/mega-categories');
  const brands = await data<{ brands: { data: { url: string }[] } }>(base, '/api/v1/ecommerce-core/search-suggestions?search_key=gucci', 'POST');
  const paths: Record<PageTypeName, string> = {
    home: '/',
    category: tree[0]?.childs.data[0]?.childs.data[0]?.url ?? '/c/3/platya',
    brand: brands.brands.data[0]?.url ?? '/m/1/gucci',
    search: `/product/search/${encodeURIComponent('платье')}`,
    product: listing.products[0]?.url ?? '/',
    brands: '/brands',
    'info page': '/i/12/razmery',
    'blog post': blogs.posts[0]?.url ?? '/blog',
    cart: '/cart',
  };
  return PAGE_TYPE_NAMES.map((name) => [name, paths[name]]);
}
