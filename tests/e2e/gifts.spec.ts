// Gift certificates in Chromium (issue 56) at 1440 and 390 px: a certificate bought on its page with the
// script switched off, paid on the test provider's page, its code mailed to its recipient; that code typed
// at a guest's checkout pays part of the order, which the result page names; the manager's console lists
// the certificate with what is left on it.
import { readFileSync } from 'node:fs';
import { expect, test, e2ePort } from './fixtures.ts';
import { acceptCookies, addFirstSize, open, operatorSignsIn, operatorToken, payWith } from './helpers.ts';
import { readOutbox } from '../support/mail.ts';
import { e2eInfoFile } from '../support/server.ts';
import { formatPrice } from '../../src/lib/format.ts';

const dataDir = () => (JSON.parse(readFileSync(e2eInfoFile(e2ePort()), 'utf8')) as { dataDir: string }).dataDir;

test('a certificate bought without a script pays part of a guest’s order; the console shows what is left', async ({ browser, page, baseURL }, info) => {
  const recipient = `gift.${info.project.name}.${Date.now()}@example.ru`;
  // The purchase with JavaScript off: the form posts to its page and goes on to the payment.
  const plain = await browser.newContext({ javaScriptEnabled: false, viewport: page.viewportSize() ?? { width: 1440, height: 900 } });
  const noScript = await plain.newPage();
  await noScript.goto(`${baseURL}/gift-certificate`);
  await expect(noScript.getByRole('heading', { name: 'Подарочный сертификат' })).toBeVisible();
  await noScript.getByText(formatPrice(300_000), { exact: true }).first().click();
  await noScript.getByLabel('E-mail получателя').fill('not an e-mail');
  await noScript.getByLabel('Имя и фамилия').fill('Пётр Сидоров');
  await noScript.getByLabel('Email', { exact: true }).fill('petr.gift@example.ru');
  await noScript.getByLabel('Телефон').fill('+7 999 222-33-44');
  await noScript.getByTestId('gift-pay').click();
  // Refused: the message under the field, what was typed kept.
  await expect(noScript.getByText('Email не валиден')).toBeVisible();
  await expect(noScript.getByLabel('Имя и фамилия')).toHaveValue('Пётр Сидоров');
  await noScript.getByLabel('E-mail получателя').fill(recipient);
  await noScript.getByLabel('Имя получателя').fill('Ольга');
  await noScript.getByLabel('Пожелание').fill('С праздником!');
  await noScript.screenshot({ path: info.outputPath(`gift-page-${info.project.name}.png`), fullPage: true });
  await noScript.getByTestId('gift-pay').click();
  await noScript.waitForURL(/\/test-payment\/tp_[0-9a-f]{24}$/);
  const paymentPath = new URL(noScript.url()).pathname;
  await plain.close();

  // Paid in a browser with its script (the test provider's page is an island).
  await page.goto(`${baseURL}${paymentPath}`);
  await payWith(page, '2200 0000 0000 0004');
  await page.waitForURL(/\/order-success\//);
  await expect(page.getByTestId('result-title')).toHaveText(`Подарочный сертификат на ${formatPrice(300_000)}`);
  await expect(page.getByText(`Сертификат отправлен на ${recipient}`)).toBeVisible();
  await page.screenshot({ path: info.outputPath(`gift-paid-${info.project.name}.png`), fullPage: true });
  let code = '';
  await expect
    .poll(() => {
      const mail = readOutbox(dataDir()).find((m) => m.to.includes(recipient));
      code = /Код сертификата: ([A-Z0-9-]{19})/.exec(mail?.body ?? '')?.[1] ?? '';
      return code;
    })
    .not.toBe('');

  // A guest's checkout: the certificate takes up to its 3,000 ₽ off what the card pays.
  await addFirstSize(page, 12);
  await open(page, '/cart');
  await page.getByTestId('to-checkout').click();
  await page.waitForURL('**/checkout');
  await acceptCookies(page);
  await page.getByRole('textbox', { name: 'Имя и фамилия' }).fill('Ольга Петрова');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(recipient);
  await page.getByRole('textbox', { name: 'Телефон' }).fill('9997654321');
  await page.getByRole('textbox', { name: 'Город' }).fill('Москва');
  await page.getByRole('textbox', { name: 'Улица, дом, квартира' }).fill('Тверская, 9, кв. 3');
  const total = page.getByTestId('checkout-total');
  await expect(total).toBeVisible();
  const before = (await total.textContent())!;
  const field = page.getByRole('textbox', { name: 'Подарочный сертификат' });
  await field.fill('ABCD-EFGH-JKMN-PQRS');
  await field.press('Enter');
  await expect(page.getByText('Такого сертификата нет')).toBeVisible();
  await page.getByTestId('gift-code-answer').getByRole('button', { name: 'Убрать' }).click();
  await field.fill(code.toLowerCase());
  await page.getByTestId('gift-codes').getByRole('button', { name: 'Применить' }).click();
  await expect(page.getByTestId('gift-code-answer')).toContainText('Списывается');
  await expect(page.getByText('Оплачено сертификатами')).toBeVisible();
  await expect(total).not.toHaveText(before);
  const after = (await total.textContent())!;
  await page.screenshot({ path: info.outputPath(`gift-checkout-${info.project.name}.png`), fullPage: true });
  await page.getByRole('button', { name: /Перейти к оплате/ }).click();
  await expect(page.getByTestId('test-pay-amount')).toHaveText(after);
  await payWith(page, '2200 0000 0000 0004');
  await page.waitForURL(/\/order-success\//);
  await expect(page.getByTestId('order-certificate')).toContainText(`−${formatPrice(300_000)}`);
  await expect(page.getByTestId('order-total')).toHaveText(after);

  // The console: the certificate spent, its use named.
  await operatorSignsIn(page, baseURL!, operatorToken(), 'manager');
  await page.goto(`${baseURL}/ops/gift-certificates?q=${code}`);
  await expect(page.getByTestId('ops-gift-balance')).toHaveText(formatPrice(0));
  await expect(page.getByTestId('ops-gift-use')).toHaveCount(1);
  await page.screenshot({ path: info.outputPath(`gift-console-${info.project.name}.png`), fullPage: true });
});
