import { describe, expect, it } from 'vitest';
import { discountPercent } from '../format.ts';
import { buildSkeleton, makeProductGenerator, materialName } from './generate.ts';
import { MATERIAL_NOMINATIVE } from './vocabulary.ts';
import { IMAGE_WIDTHS } from './images.ts';

const skeleton = buildSkeleton();

describe('seed skeleton', () => {
  it('has at least 30 brands and a three-level tree with icons on the upper two levels', () => {
    expect(skeleton.brands.length).toBeGreaterThanOrEqual(30);
    const roots = skeleton.categories.filter((c) => c.parentId === null);
    expect(roots.map((r) => r.name)).toEqual(['Женщинам', 'Мужчинам', 'Детям']);
    expect(skeleton.categories.filter((c) => c.level < 2).every((c) => c.icon)).toBe(true);
    const departments = skeleton.categories.filter((c) => c.level === 1 && c.parentId === roots[0]!.id).map((c) => c.name);
    expect(departments).toEqual(['Одежда', 'Обувь', 'Сумки', 'Украшения', 'Аксессуары']);
  });
});

describe('product generator', () => {
  const a = makeProductGenerator(42, skeleton);
  const b = makeProductGenerator(42, skeleton);
  const c = makeProductGenerator(43, skeleton);

  it('is deterministic: same seed and id give the same product', () => {
    for (const id of [1, 2, 500, 99_999]) expect(a(id)).toEqual(b(id));
  });
  it('differs for another seed', () => {
    const ids = [1, 2, 3, 4, 5];
    expect(ids.map((id) => a(id).name)).not.toEqual(ids.map((id) => c(id).name));
  });
  it('builds believable products', () => {
    const products = Array.from({ length: 500 }, (_, i) => a(i + 1));
    for (const p of products) {
      expect(p.name).toMatch(/^[А-ЯЁ]/);
      expect(p.price).toBeGreaterThan(0);
      expect(p.price % 100).toBe(0);
      if (p.priceOld !== null) expect(p.priceOld).toBeGreaterThan(p.price);
      expect(p.variants.length).toBeGreaterThan(0);
      for (const v of p.variants) {
        expect(v.stock).toBeGreaterThanOrEqual(0);
        expect(v.maxItem).toBeGreaterThanOrEqual(v.minItem);
      }
      expect(p.images).toHaveLength(2);
      expect(p.images[0]!.widths).toEqual([...IMAGE_WIDTHS]);
      expect(p.images[0]!.urlTemplate).toContain('{w}');
      expect(p.description.length).toBeGreaterThan(80);
    }
    const discounted = products.filter((p) => discountPercent(p.price, p.priceOld) > 0).length;
    expect(discounted / products.length).toBeGreaterThan(0.15);
    expect(discounted / products.length).toBeLessThan(0.45);
    expect(products.some((p) => p.freeDelivery)).toBe(true);
    expect(products.some((p) => p.variants.some((v) => v.stock === 0))).toBe(true);
    expect(new Set(products.map((p) => p.variants[0]!.code)).size).toBe(products.length);
  });

  it('names the material in the nominative: «Материал: Замша», never «Замши»', () => {
    expect(materialName('замши')).toBe('Замша');
    expect(materialName('шерсти и кашемира')).toBe('Шерсть и кашемир');
    const nominatives = new Set(Object.values(MATERIAL_NOMINATIVE).map(materialName));
    const seen = new Set(
      Array.from({ length: 3000 }, (_, i) => a(i + 1).attributes.find((attr) => attr.name === 'Материал')?.value).filter((v): v is string => v !== undefined),
    );
    expect(seen.size).toBeGreaterThan(30);
    // Every material the generator uses has its nominative: none falls through in the genitive.
    expect([...seen].filter((value) => !nominatives.has(value))).toEqual([]);
  });
});
