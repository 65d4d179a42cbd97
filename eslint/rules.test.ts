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
    ['src/features/cart/CartPage.tsx', `export const A = () => <p>Корзина пуста</p>;`],
    ['src/features/cart/CartPage.tsx', `export const A = () => <p title="Корзина">x</p>;`],
    ['src/features/cart/cart.ts', 'export const message = `В корзине ${1} товар`;'],
    ['src/pages/api/v1/ecommerce-core/x.ts', `export const message = 'Готово';`],
    ['src/components/ui/Empty.astro', `---\n---\n<p>Ничего не найдено</p>`],
    ['src/pages/cart.astro', `---\nconst title = 'Корзина';\n---\n<h1>{title}</h1>`],
  ])('refuses Russian text in %s', async (path, code) => {
    expect(await problems(path, code)).toEqual([expect.stringMatching(/^shop\/no-cyrillic-literal: Cyrillic text/)]);
  });

  it.each([
    ['src/lib/i18n/ru.ts', `export const ru = { 'cart.empty': 'Корзина пуста' } as const;`],
    ['src/features/cart/CartPage.tsx', `export const A = ({ m }: { m: Record<'cart.empty', string> }) => <p>{m['cart.empty']}</p>;`],
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
      'src/features/cart/CartPage.tsx',
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
    ['src/features/cart/CartPage.tsx', `import type { BrandListItem } from '~/features/catalog/catalog.server.ts';\nexport type V = BrandListItem;`],
  ])('lets %s import downwards or through a public face', async (path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});
