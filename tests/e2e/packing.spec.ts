// Packing marked goods in Chromium (issue 39) at 1440 and 390 px — the phone as the scanner: an admin marks
// a product and gives its size a GTIN on the console's product page; a guest's paid order of two units is
// packed by typing each code and Enter as a scanner does. A code of the wrong shape is said under its field
// at once; a good one moves the cursor to the next unit; the last one sends the form, and the page says
// every unit has its code; a wrongly scanned unit's code is cleared and the unit waits again.
import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures.ts';
import { call, hydrated, operatorSignsIn, operatorToken } from './helpers.ts';
import { ean13 } from '../support/marking-codes.ts';

/** A unit's code as a scanner that drops the group separators types it. */
const scanned = (barcode: string, serial: string) => `01${barcode.padStart(14, '0')}21${serial}91EE0692${'Vm9A7kqXc3Rz1bYtP0wLs8dNf2Hj6GuQe4KyWiOaBnM='}`;

test('a manager packs an order of marked goods by scanning each unit', async ({ page, baseURL, isMobile }) => {
  // A product of its own per viewport (the two may share a worker's shop), with two of its first size in stock.
  let item: { id: number; variant_code: string } | undefined;
  for (let id = isMobile ? 120 : 90; !item && id < (isMobile ? 150 : 120); id++) {
    const product = await call<{ variants: { code: string; left: number }[] } | undefined>(baseURL!, `/product/${id}`);
    const first = product?.variants[0];
    if (first && first.left >= 2) item = { id, variant_code: first.code };
  }
  if (!item) throw new Error('nothing in stock');
  const barcode = ean13(`46${String(item.id).padStart(10, '0')}`);

  await operatorSignsIn(page, baseURL!, operatorToken(), 'admin');
  await page.goto(`/ops/products/${item.id}`);
  const marking = page.getByTestId('ops-product-marking');
  await marking.getByLabel('Маркируется: код каждой единицы сканируется при упаковке').check();
  await marking.locator('input[name^="gtin_"]').first().fill(barcode);
  await marking.getByRole('button', { name: 'Сохранить маркировку' }).click();
  await expect(page.getByText('Маркировка сохранена')).toBeVisible();

  const placed = await call<{ code: string; payment_url: string }>(
    baseURL!,
    '/checkout/place-order',
    {
      items: [{ ...item, quantity: 2 }],
      contact: { name: 'Вера Сканерова', email: `pack.${randomUUID().slice(0, 8)}@example.ru`, phone: '+7 (999) 222-33-44' },
      delivery: { method: 'courier', city: 'Казань', address: 'Баумана, 1' },
    },
    { 'idempotency-key': randomUUID() },
  );
  await call(baseURL!, `/payments/test/${placed.payment_url.split('/').pop()}`, { action: 'sbp' });

  await page.goto(`/ops/orders/${placed.code}`);
  await page.getByTestId('ops-pack-link').click();
  await expect(page.getByTestId('ops-pack-state')).toHaveText('Осталось отсканировать: 2');
  // (A scan before the island is up sends the form, and the server answers the same: tests/integration/marking.test.ts.)
  await hydrated(page);
  const [first, second] = [page.getByLabel('Единица 1'), page.getByLabel('Единица 2')];
  // The page opens on the first empty unit: the scanner's first code goes there.
  await expect(first).toBeFocused();

  // A box's EAN-13, not the unit's DataMatrix: said at once, nothing sent, the field ready for the next scan.
  await page.keyboard.type(barcode);
  await page.keyboard.press('Enter');
  const problem = page.getByTestId(`ops-pack-problem-${await first.getAttribute('name')}`);
  await expect(problem).toHaveText(/^Это не код маркировки: нужны 01 и GTIN, 21 и серийный номер, 91 и 92/);
  await expect(first).toBeFocused();
  await expect(page.getByTestId('ops-pack-state')).toHaveText('Осталось отсканировать: 2');

  const serial = randomUUID().replace(/-/g, '').slice(0, 13);
  await page.keyboard.type(scanned(barcode, serial));
  await page.keyboard.press('Enter');
  await expect(second).toBeFocused();
  await expect(problem).toHaveCount(0);
  await page.keyboard.type(`]d2${scanned(barcode, serial.split('').reverse().join(''))}`);
  await page.keyboard.press('Enter');
  // The last unit sends the form; the server checks the size's GTIN and keeps both.
  await expect(page.getByTestId('ops-pack-state')).toHaveText('У всех единиц есть коды — заказ можно передать в доставку.');
  await expect(first).toHaveValue(new RegExp(`^01${barcode.padStart(14, '0')}21${serial}<GS>91EE06<GS>92`));

  // The second pair was the wrong one: its code is taken off before the parcel leaves, and it waits again.
  await page.getByRole('button', { name: /^Очистить код единицы 2/ }).click();
  await expect(page.getByText('Код снят — единица ждёт нового')).toBeVisible();
  await expect(page.getByTestId('ops-pack-state')).toHaveText('Осталось отсканировать: 1');
  await expect(page.getByLabel('Единица 2')).toHaveValue('');
  await expect(page.getByLabel('Единица 1')).toHaveValue(new RegExp(`^01${barcode.padStart(14, '0')}21${serial}`));
});
