import { expect, it } from 'vitest';
import { BROWSER_LOADED_PROPS } from '~/lib/http/island-props.ts';
import { frameLabels } from './layout.labels.ts';

it('the front strips exactly what the browser’s frame labels hold, island by island, in both languages', () => {
  for (const locale of ['ru', 'en'] as const) {
    const labels = frameLabels(locale);
    expect(Object.keys(BROWSER_LOADED_PROPS).sort()).toEqual(Object.keys(labels).sort());
    for (const [name, props] of Object.entries(BROWSER_LOADED_PROPS))
      expect([...props].sort()).toEqual(Object.keys(labels[name as keyof typeof labels]).sort());
  }
  expect(frameLabels('ru').Header.labels.catalog).toBe('Каталог');
  expect(frameLabels('en').Header.labels.catalog).not.toBe('Каталог');
});
