// The shop's lint rules, run through the project's real ESLint configuration on planted violations:
// a rule that stops firing, or a config that stops applying it where it should, fails here.
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

// The first lint loads the configuration and its parsers (seconds on a busy machine): done before the
// tests, so each test times only its own lint.
beforeAll(() => problems('src/features/cart/cart.ts', 'export const n = 1;'), 60_000);

describe('shop/no-cyrillic-literal', () => {
  it.each([
    ['src/features/checkout/CartPage.tsx', `export const A = () => <p>Корзина пуста</p>;`],
    ['src/features/checkout/CartPage.tsx', `export const A = () => <p title="Корзина">x</p>;`],
    ['src/features/cart/cart.ts', 'export const message = `В корзине ${1} товар`;'],
    ['src/pages/api/v1/ecommerce-core/x.ts', `export const message = 'Готово';`],
    ['src/components/ui/Empty.astro', `---\n---\n<p>Ничего не найдено</p>`],
    ['src/pages/cart.astro', `---\nconst title = 'Корзина';\n---\n<h1>{title}</h1>`],
  ])('refuses Russian text in %s', async (path, code) => {
    expect(await problems(path, code)).toEqual([expect.stringMatching(/^shop\/no-cyrillic-literal: Cyrillic text/)]);
  });

  it.each([
    ['src/lib/i18n/ru.ts', `export const ru = { 'cart.empty': 'Корзина пуста' } as const;`],
    ['src/features/checkout/CartPage.tsx', `export const A = ({ m }: { m: Record<'cart.empty', string> }) => <p>{m['cart.empty']}</p>;`],
    ['src/features/cart/cart.ts', `// Комментарии по-русски не интерфейс\nexport const n = 1;`],
  ])('lets %s be', async (path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});

describe('shop/import-boundaries', () => {
  it.each([
    ['src/lib/http/x.ts', `import { cardsByIds } from '~/features/catalog/catalog.server.ts';\nexport { cardsByIds };`, /imports go pages → features → lib/],
    ['src/features/catalog/x.ts', `import { GET } from '~/pages/api/health.ts';\nexport { GET };`, /imports go pages → features → lib/],
    [
      'src/features/checkout/CartPage.tsx',
      `import { cardsByIds } from '~/features/catalog/catalog.server.ts';\nexport { cardsByIds };`,
      /browser file may not import server code/,
    ],
    ['src/features/cart/cart.store.ts', `import { getDb } from '~/lib/db/index.ts';\nexport { getDb };`, /browser file may not import server code/],
    [
      'src/features/cart/cart.server.ts',
      `import { queryIndex } from '~/features/catalog/read-model.ts';\nexport { queryIndex };`,
      /internal to features\/catalog/,
    ],
  ])('refuses %s importing across a boundary', async (path, code, message) => {
    const found = await problems(path, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ['src/pages/c/x.astro', `---\nimport { categoryView } from '~/features/catalog/views.server.ts';\nconst v = categoryView;\n---\n<p>{String(v)}</p>`],
    ['src/features/cart/cart.server.ts', `import { cardsByIds } from '~/features/catalog/catalog.server.ts';\nexport { cardsByIds };`],
    ['src/features/search/search.server.ts', `import { matchText } from '~/features/catalog/read-model.server.ts';\nexport { matchText };`],
    ['src/features/checkout/CartPage.tsx', `import type { BrandListItem } from '~/features/catalog/catalog.server.ts';\nexport type V = BrandListItem;`],
  ])('lets %s import downwards or through a public face', async (path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});

describe('shop/domain-order', () => {
  it.each([
    [
      'src/features/auth/x.ts',
      `import { guestItems } from '~/features/cart/cart.store.ts';\nexport { guestItems };`,
      /features\/auth may not import from features\/cart/,
    ],
    [
      'src/features/orders/x.ts',
      `import type { CarrierQuote } from '~/features/delivery/delivery.ts';\nexport type Q = CarrierQuote;`,
      /features\/orders may not import from features\/delivery/,
    ],
    ['src/features/catalog/x.ts', `export { openModal } from '../layout/Modals.tsx';`, /features\/catalog may not import from features\/layout/],
    ['src/features/gifts/x.ts', `export const n = 1;`, /features\/gifts is not in the order of the domains/],
  ])('refuses %s importing a domain above it (type-only and re-exports too), or a domain not placed', async (path, code, message) => {
    const found = await problems(path, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it.each([
    ['src/features/checkout/x.ts', `import { guestItems } from '~/features/cart/cart.store.ts';\nexport { guestItems };`],
    ['src/features/layout/x.ts', `import type { SignInCarry } from '~/features/auth/AuthForms.tsx';\nexport type C = SignInCarry;`],
    ['src/features/wishlist/x.test.ts', `import { followCart } from '~/features/cart/cart.store.ts';\nexport { followCart };`],
  ])('lets %s import from below (a test from anywhere)', async (path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});

describe('shop/no-import-cycle', () => {
  it.each([
    [
      'src/features/catalog/ids.ts',
      `import { searchUrl } from './catalog.ts';\nexport const url = searchUrl;`,
      /catalog\/ids\.ts → features\/catalog\/catalog\.ts → features\/catalog\/ids\.ts/,
    ],
    [
      'src/features/layout/layout.labels.types.ts',
      `import type { HeaderProps } from './Header.tsx';\nexport type P = HeaderProps;`,
      /closes a circle: features\/layout\/layout\.labels\.types\.ts → features\/layout\/Header\.tsx → /,
    ],
  ])('refuses %s closing a circle (type-only too)', async (path, code, message) => {
    const found = await problems(path, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });

  it('lets a module import what does not lead back to it', async () => {
    expect(await problems('src/features/catalog/ids.ts', `import { plainText } from '~/lib/html.ts';\nexport const text = plainText;`)).toEqual([]);
  });
});
