import { describe, expect, it } from 'vitest';
import { buildCategoryTree, imageFromTemplate } from './catalog.ts';

describe('buildCategoryTree', () => {
  const rows = [
    { id: 3, parentId: 2, name: 'Платья', slug: 'platya', icon: null, level: 2, sort: 0 },
    { id: 1, parentId: null, name: 'Женщинам', slug: 'zhenshchinam', icon: 'women', level: 0, sort: 0 },
    { id: 2, parentId: 1, name: 'Одежда', slug: 'odezhda', icon: 'clothing', level: 1, sort: 1 },
    { id: 4, parentId: 1, name: 'Обувь', slug: 'obuv', icon: 'shoes', level: 1, sort: 0 },
    { id: 9, parentId: 99, name: 'Сирота', slug: 'sirota', icon: null, level: 1, sort: 0 },
  ];
  it('nests children under childs.data in sort order, with urls and icon urls', () => {
    const tree = buildCategoryTree(rows);
    expect(tree).toHaveLength(1);
    const root = tree[0]!;
    expect(root.url).toBe('/c/1/zhenshchinam');
    expect(root.icon).toBe('/icons/categories/women.svg');
    expect(root.childs.data.map((c) => c.name)).toEqual(['Обувь', 'Одежда']);
    expect(root.childs.data[1]!.childs.data[0]).toMatchObject({ id: 3, level: 2, parent_id: 2, icon: null });
  });
  it('drops rows whose parent does not exist', () => {
    expect(JSON.stringify(buildCategoryTree(rows))).not.toContain('Сирота');
  });
});

it('imageFromTemplate builds src from the largest width and a srcset of all widths', () => {
  const img = imageFromTemplate('/img/p/dress-black-1-w{w}.webp', [360, 720], 720, 960, 'Платье');
  expect(img.src).toBe('/img/p/dress-black-1-w720.webp');
  expect(img.srcset).toBe('/img/p/dress-black-1-w360.webp 360w, /img/p/dress-black-1-w720.webp 720w');
  expect(img).toMatchObject({ width: 720, height: 960, alt: 'Платье' });
});

it('an imported photo paints its average colour, rounded to one of the stylesheet’s 125 classes, until it arrives', () => {
  expect(imageFromTemplate('/media/a-w{w}.webp', [360, 720], 720, 960, '', '#7a4b2a').placeholder).toBe('ph-211');
  expect(imageFromTemplate('/media/a-w{w}.webp', [360, 720], 720, 960, '', '#ffffff').placeholder).toBe('ph-444');
  // Drawn images of the generated catalogue have none, and nothing is made of a malformed colour.
  expect(imageFromTemplate('/img/p/a-w{w}.webp', [360, 720], 720, 960, '').placeholder).toBeNull();
  expect(imageFromTemplate('/media/a-w{w}.webp', [360, 720], 720, 960, '', 'red; x').placeholder).toBeNull();
});
