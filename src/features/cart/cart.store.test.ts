import { cleanStores } from 'nanostores';
import { afterEach, describe, expect, it } from 'vitest';
import { browserMessages } from '~/lib/i18n/index.ts';
import { setBrowserMessages } from '~/lib/i18n/browser.ts';
import { $cartCount, $guestLines, addToGuestCart, GUEST_CART_KEY } from './cart.store.ts';
import { memoryStorage } from '~/lib/memory-storage.ts';

// What DefaultLayout embeds in a Russian page.
setBrowserMessages(browserMessages('ru'));

describe('guest cart add (spec §5)', () => {
  afterEach(() => {
    $guestLines.set([]);
    cleanStores($guestLines, $cartCount);
  });

  it('joins the same size into one line and stores it under guest-products', () => {
    const storage = memoryStorage();
    const first = addToGuestCart({ id: 7, variant_code: '7-M', quantity: 1, max_item: 3 }, storage, 1000);
    addToGuestCart({ id: 7, variant_code: '7-M', quantity: 1, max_item: 3 }, storage, 2000);
    addToGuestCart({ id: 7, variant_code: '7-L', quantity: 1, max_item: 3 }, storage, 3000);
    expect(first).toEqual({ ok: true, line: { uid: '1000', id: 7, quantity: 1, variant_code: '7-M' } });
    expect(JSON.parse(storage.getItem(GUEST_CART_KEY) ?? '[]')).toEqual([
      { uid: '1000', id: 7, quantity: 2, variant_code: '7-M' },
      { uid: '3000', id: 7, quantity: 1, variant_code: '7-L' },
    ]);
    expect($cartCount.get()).toBe(3);
  });

  it('refuses past the line maximum with the spec message and adds nothing', () => {
    const storage = memoryStorage();
    addToGuestCart({ id: 7, variant_code: '7-M', quantity: 2, max_item: 2 }, storage);
    expect(addToGuestCart({ id: 7, variant_code: '7-M', quantity: 1, max_item: 2 }, storage)).toEqual({
      ok: false,
      message: 'Вы не можете добавить в корзину больше 2 товаров',
    });
    expect($cartCount.get()).toBe(2);
  });
});
