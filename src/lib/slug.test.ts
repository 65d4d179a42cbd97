import { expect, it } from 'vitest';
import { slugify } from './slug.ts';

it('transliterates Russian into readable ASCII slugs', () => {
  expect(slugify('Платья')).toBe('platya');
  expect(slugify('Сумки через плечо')).toBe('sumki-cherez-plecho');
  expect(slugify('Щётка №5')).toBe('shchetka-no5');
  expect(slugify('Майка')).toBe('mayka');
  expect(slugify('Dolce & Gabbana')).toBe('dolce-and-gabbana');
  expect(slugify('Chloé')).toBe('chloe');
  expect(slugify('  --  ')).toBe('');
});
