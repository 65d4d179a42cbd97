// The cart calls (spec §7, issue 9) over real HTTP: the customer's server cart (store as a form field,
// update, remove, clear), the line limit's message, guest lines checked against the catalogue, and the
// guest's lines merged at login within their limits. Prices always come from the database.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { shared } from '../support/shared-shop.ts';
import { api } from '../support/api.ts';
import type { CartLine } from '../../src/features/cart/cart.ts';

const CART = '/api/v1/ecommerce-core/customer/cart';
const PASSWORD = 'корзина полная яблок';

type Line = CartLine;

const json = (body: unknown, token?: string) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
});
const form = (fields: Record<string, string>, token: string) => {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return { method: 'POST', body, headers: { authorization: `Bearer ${token}` } };
};
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function customer(): Promise<{ email: string; token: string }> {
  const email = `cart.${randomBytes(5).toString('hex')}@example.ru`;
  const res = await api<{ access_token: string }>(
    '/api/v1/ecommerce-core/auth/customer-registration',
    json({ email, phone: '+7 (999) 333-22-11', password: PASSWORD }),
  );
  expect(res.status).toBe(201);
  return { email, token: res.body.data!.access_token };
}

const fx = () => shared().catalog;
const size = (p: { variants: { code: string; label: string }[] }, label: string) => p.variants.find((v) => v.label === label)!.code;

describe('the customer’s cart', () => {
  it('adds a size from a form field, joins the same size, answers current prices, updates, selects, removes, clears', async () => {
    const { token } = await customer();
    const dress = fx().dressProducts[0]!;
    const product = (await api<{ price: number; price_old: number | null }>(`/api/v1/ecommerce-core/product/${dress.id}`)).body.data!;
    const item = { id: dress.id, quantity: 1, uid: '1732360000000', variant_code: size(dress, 'S'), price: 1 };
    const added = await api<Line[]>(`${CART}/store-cart-item`, form({ item: JSON.stringify(item) }, token));
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual([
      expect.objectContaining({
        uid: '1732360000000',
        id: dress.id,
        variant: 'S',
        quantity: 1,
        price: product.price,
        price_old: product.price_old,
        is_available: true,
        is_selected: true,
      }),
    ]);
    // The same size again joins its line (a tampered price changed nothing).
    const again = await api<Line[]>(
      `${CART}/store-cart-item`,
      json({ item: { id: dress.id, quantity: 2, uid: 'other', variant_code: size(dress, 'S') } }, token),
    );
    expect(again.body.data!.map((l) => [l.uid, l.quantity])).toEqual([['1732360000000', 3]]);

    const updated = await api<Line>(`${CART}/update-cart-item`, json({ item: { uid: '1732360000000', quantity: 2 } }, token));
    expect(updated.body.data).toMatchObject({ quantity: 2 });
    const unselected = await api<Line>(`${CART}/update-cart-item`, json({ item: { uid: '1732360000000', is_selected: false } }, token));
    expect(unselected.body.data).toMatchObject({ quantity: 2, is_selected: false });

    const list = await api<Line[]>(`${CART}/cart-items-list`, bearer(token));
    expect(list.body.data).toHaveLength(1);
    const removed = await api<Line[]>(`${CART}/remove-item`, json({ uid: '1732360000000' }, token));
    expect(removed.body.data).toEqual([]);
    await api(`${CART}/store-cart-item`, json({ item: { id: dress.id, quantity: 1, variant_code: size(dress, 'L') } }, token));
    const cleared = await api<Line[]>(`${CART}/clear`, json({}, token));
    expect(cleared.body.data).toEqual([]);
    expect((await api<Line[]>(`${CART}/cart-items-list`, bearer(token))).body.data).toEqual([]);
  });

  it('refuses going past the line maximum with the spec’s message, and nothing is added', async () => {
    const { token } = await customer();
    const scarce = fx().scarce;
    const code = size(scarce, 'XS'); // 2 in stock, line maximum 5: the line can hold 2
    expect((await api(`${CART}/store-cart-item`, json({ item: { id: scarce.id, quantity: 2, variant_code: code } }, token))).status).toBe(200);
    const over = await api(`${CART}/store-cart-item`, json({ item: { id: scarce.id, quantity: 1, variant_code: code } }, token));
    expect(over.status).toBe(422);
    expect(over.body.message).toBe('Вы не можете добавить в корзину больше 2 товаров');
    expect((await api<Line[]>(`${CART}/cart-items-list`, bearer(token))).body.data!.map((l) => l.quantity)).toEqual([2]);
  });

  it.each([
    ['a sold-out size', () => ({ id: fx().scarce.id, quantity: 1, variant_code: size(fx().scarce, 'XL') }), 409, 'Этого размера сейчас нет в наличии'],
    ['a size of another product', () => ({ id: fx().dressProducts[0]!.id, quantity: 1, variant_code: size(fx().scarce, 'XS') }), 404, 'Не найдено'],
    ['no size where there are several', () => ({ id: fx().dressProducts[0]!.id, quantity: 1 }), 422, 'Выберите размер'],
    ['a hidden product', () => ({ id: fx().inactive.id, quantity: 1 }), 409, 'Этого размера сейчас нет в наличии'],
  ])('refuses %s', async (_, item, status, message) => {
    const { token } = await customer();
    const res = await api(`${CART}/store-cart-item`, json({ item: item() }, token));
    expect(res.status).toBe(status);
    expect(res.body.message).toBe(message);
  });

  it.each([
    [{ id: 1, quantity: 0 }, 'Количество — не меньше 1'],
    [{ id: 1, quantity: -2 }, 'Количество — не меньше 1'],
    [{ id: 1, quantity: 1.5 }, 'Количество — целое число'],
    [{ id: 1, quantity: '2' }, 'Ожидается число'],
  ])('refuses the quantity of %j with a field error', async (item, message) => {
    const { token } = await customer();
    const res = await api(`${CART}/store-cart-item`, json({ item }, token));
    expect(res.status).toBe(422);
    expect(res.body.errors?.['item.quantity']).toEqual([message]);
  });

  it('an update beyond the bounds is refused, and another customer’s uid is not found', async () => {
    const a = await customer();
    const b = await customer();
    const dress = fx().dressProducts[1]!;
    const [line] = (await api<Line[]>(`${CART}/store-cart-item`, json({ item: { id: dress.id, quantity: 1, variant_code: size(dress, 'S') } }, a.token))).body
      .data!;
    const over = await api(`${CART}/update-cart-item`, json({ item: { uid: line!.uid, quantity: 4 } }, a.token));
    expect(over.status).toBe(422);
    expect(over.body.message).toBe('Вы не можете добавить в корзину больше 3 товаров');
    for (const [path, body] of [
      ['update-cart-item', { item: { uid: line!.uid, quantity: 1 } }],
      ['remove-item', { uid: line!.uid }],
    ] as const) {
      const res = await api(`${CART}/${path}`, json(body, b.token));
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Такой позиции в корзине нет');
    }
    expect((await api<Line[]>(`${CART}/cart-items-list`, bearer(a.token))).body.data).toHaveLength(1);
  });

  it('guests are refused every customer cart call', async () => {
    for (const [method, path] of [
      ['GET', 'cart-items-list'],
      ['POST', 'store-cart-item'],
      ['POST', 'update-cart-item'],
      ['POST', 'remove-item'],
      ['POST', 'clear'],
    ] as const) {
      const res = await api(`${CART}/${path}`, method === 'GET' ? {} : json({ uid: 'x', item: { id: 1, quantity: 1, uid: 'x' } }));
      expect(res.status, path).toBe(401);
    }
  });
});

describe('guest lines', () => {
  it('validate-cart-item answers the line as the shop sees it: price from the database, quantity within bounds', async () => {
    const dress = fx().dressProducts[2]!;
    const item = { id: dress.id, quantity: 50, uid: '17', variant_code: size(dress, 'L'), price: 1 };
    const body = new FormData();
    body.append('item', JSON.stringify(item));
    const res = await api<Line>('/api/v1/ecommerce-core/guest/cart/validate-cart-item', { method: 'POST', body });
    expect(res.status).toBe(200);
    const product = (await api<{ price: number }>(`/api/v1/ecommerce-core/product/${dress.id}`)).body.data!;
    expect(res.body.data).toMatchObject({ uid: '17', price: product.price, quantity: 5, max_item: 5, is_available: true });
  });

  it('validate-cart-items keeps known lines, marks sold-out ones, leaves out what is gone', async () => {
    const scarce = fx().scarce;
    const res = await api<{ items: Line[] }>(
      '/api/v1/ecommerce-core/cart/validate-cart-items',
      json({
        items: [
          { id: scarce.id, quantity: 1, uid: 'a', variant_code: size(scarce, 'XS') },
          { id: scarce.id, quantity: 1, uid: 'b', variant_code: size(scarce, 'XL') },
          { id: 999_999, quantity: 1, uid: 'c' },
        ],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data!.items.map((l) => [l.uid, l.is_available])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('at login the guest’s lines join the server cart within each line’s limit', async () => {
    const { email, token } = await customer();
    const scarce = fx().scarce;
    const dress = fx().dressProducts[3]!;
    await api(`${CART}/store-cart-item`, json({ item: { id: scarce.id, quantity: 1, variant_code: size(scarce, 'XS') } }, token));
    const login = await api(
      '/api/v1/ecommerce-core/auth/customer-login',
      json({
        email,
        password: PASSWORD,
        cart_items: [
          { id: scarce.id, quantity: 5, uid: 'g1', variant_code: size(scarce, 'XS') },
          { id: dress.id, quantity: 2, uid: 'g2', variant_code: size(dress, 'S') },
          { id: scarce.id, quantity: 1, uid: 'g3', variant_code: size(scarce, 'XL') },
          { nonsense: true },
        ],
      }),
    );
    expect(login.status).toBe(200);
    const lines = (await api<Line[]>(`${CART}/cart-items-list`, bearer(token))).body.data!;
    expect(lines.map((l) => [l.variant, l.quantity])).toEqual([
      ['XS', 2],
      ['S', 2],
    ]);
  });
});
