import { describe, expect, it } from 'vitest';
import { stripIslandProps } from './island-props.ts';

const island = (file: string, props: object) =>
  `<astro-island uid="x" component-url="/_astro/${file}" component-export="default" props="${JSON.stringify(props)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')}" ssr client="eager"><nav>x</nav></astro-island>`;

describe('the frame islands’ strings taken out of their props', () => {
  it('takes out the named props of the named islands and keeps the rest, escaped as Astro escapes them', () => {
    const html = island('Header.Ab12.js', { labels: [0, { catalog: [0, 'Каталог'] }], tags: [1, [[0, { title: [0, 'Скидки до 50 % & "ещё" <b>'] }]]] });
    expect(stripIslandProps(html)).toBe(island('Header.Ab12.js', { tags: [1, [[0, { title: [0, 'Скидки до 50 % & "ещё" <b>'] }]]] }));
  });

  it('leaves other islands, and the same prop names of other islands, as they were', () => {
    const other = island('DashboardMenu.Zz9.js', { labels: [0, { a: [0, 'b'] }] });
    expect(stripIslandProps(other)).toBe(other);
    expect(stripIslandProps('<p>no islands</p>')).toBe('<p>no islands</p>');
  });

  it('leaves an attribute it cannot read', () => {
    const broken = '<astro-island component-url="/_astro/BottomNav.X.js" props="{not json">';
    expect(stripIslandProps(broken)).toBe(broken);
  });
});
