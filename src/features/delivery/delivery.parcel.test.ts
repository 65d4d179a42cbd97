import { describe, expect, it } from 'vitest';
import { categoryParcel, ITEM_PARCEL, itemParcel, packParcel, parcelKey, parseParcelRules } from './delivery.parcel.ts';

const NONE = { weight: null, length: null, width: null, height: null };

describe('the parcels of DELIVERY_PARCELS', () => {
  const rules = parseParcelRules('*-obuv=1500:34x22x13, zhenskie-sumki=900:40x30x15; *ukrasheniya=150:12x10x6,zhenshchinam=700:35x25x8');

  it('gives a category its own default, else its nearest parent’s, else 1 kg in 30 × 25 × 10 cm', () => {
    expect(categoryParcel(rules, ['zhenskaya-obuv', 'zhenshchinam'])).toEqual({ weight: 1500, length: 34, width: 22, height: 13 });
    expect(categoryParcel(rules, ['zhenskie-sumki', 'zhenshchinam'])).toEqual({ weight: 900, length: 40, width: 30, height: 15 });
    expect(categoryParcel(rules, ['detskie-ukrasheniya', 'detyam'])).toEqual({ weight: 150, length: 12, width: 10, height: 6 });
    // Women's clothing has no entry of its own: the department's applies.
    expect(categoryParcel(rules, ['zhenskaya-odezhda', 'zhenshchinam'])).toEqual({ weight: 700, length: 35, width: 25, height: 8 });
    expect(categoryParcel(rules, ['muzhskaya-odezhda', 'muzhchinam'])).toEqual(ITEM_PARCEL);
    expect(categoryParcel([], ['zhenskaya-obuv'])).toEqual(ITEM_PARCEL);
  });

  it('matches a star only where it stands: "*-obuv" is not "obuvnaya-kosmetika"', () => {
    expect(categoryParcel(rules, ['obuvnaya-kosmetika'])).toEqual(ITEM_PARCEL);
    expect(categoryParcel(parseParcelRules('*=300:20x15x5'), ['anything'])).toEqual({ weight: 300, length: 20, width: 15, height: 5 });
  });

  it('reads nothing from an empty setting', () => {
    expect(parseParcelRules('')).toEqual([]);
    expect(parseParcelRules(' , ;')).toEqual([]);
  });
});

describe('an item’s parcel', () => {
  const shoes = { weight: 1500, length: 34, width: 22, height: 13 };

  it('is the product’s own weight and size when the import gave them', () => {
    expect(itemParcel({ weight: 3600, length: 21, width: 21, height: 23 }, shoes)).toEqual({ weight: 3600, length: 21, width: 21, height: 23 });
  });

  it('takes the category’s size when the product gives only its weight, and its weight when only its size', () => {
    expect(itemParcel({ ...NONE, weight: 420 }, shoes)).toEqual({ ...shoes, weight: 420 });
    expect(itemParcel({ weight: null, length: 50, width: 40, height: 30 }, shoes)).toEqual({ weight: 1500, length: 50, width: 40, height: 30 });
    // Two sides of three are no size at all.
    expect(itemParcel({ weight: null, length: 50, width: 40, height: null }, shoes)).toEqual(shoes);
    expect(itemParcel(NONE, shoes)).toEqual(shoes);
  });
});

describe('one box for an order', () => {
  const ring = { weight: 30, length: 6, width: 6, height: 4 };
  const shoes = { weight: 1500, length: 34, width: 22, height: 13 };

  it('weighs what its items weigh together, rounded up to 100 g', () => {
    expect(packParcel([{ parcel: ring, quantity: 1 }]).weight).toBe(100);
    expect(packParcel([{ parcel: shoes, quantity: 2 }]).weight).toBe(3000);
    expect(
      packParcel([
        { parcel: shoes, quantity: 1 },
        { parcel: ring, quantity: 3 },
      ]).weight,
    ).toBe(1600);
  });

  it('is as long and wide as the largest item and tall enough for all of them', () => {
    // Two shoe boxes side by side would fit a lower box; stacked they are 26 cm: the volume says 26.
    expect(packParcel([{ parcel: shoes, quantity: 2 }])).toEqual({ weight: 3000, length: 34, width: 22, height: 26 });
    // Two rings in their own boxes add their volume: a centimetre on top of the shoes.
    expect(
      packParcel([
        { parcel: shoes, quantity: 1 },
        { parcel: ring, quantity: 2 },
      ]),
    ).toEqual({ weight: 1600, length: 34, width: 22, height: 14 });
  });

  it('lays an item flat: a tall narrow item counts its longest side along the box', () => {
    expect(packParcel([{ parcel: { weight: 800, length: 10, width: 12, height: 60 }, quantity: 1 }])).toEqual({
      weight: 800,
      length: 60,
      width: 12,
      height: 10,
    });
  });

  it('is the default item’s box when nothing is in it', () => {
    expect(packParcel([])).toEqual(ITEM_PARCEL);
    expect(packParcel([{ parcel: shoes, quantity: 0 }])).toEqual(ITEM_PARCEL);
  });

  it('is named by one short key: what the tariffs are kept and a quote is sealed for', () => {
    expect(parcelKey({ weight: 3000, length: 34, width: 22, height: 26 })).toBe('3000:34x22x26');
  });
});
