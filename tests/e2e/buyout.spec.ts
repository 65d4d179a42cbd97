// The buyout request flow (issue 3, spec §2, §5): info screen, form, validation, server errors, thanks.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, e2ePort } from './fixtures.ts';
import { e2eInfoFile } from '../support/server.ts';
import { acceptCookies, isMobile, open } from './helpers.ts';

test('a visitor sends a buyout request; a server field error keeps the modal open', async ({ page }) => {
  await open(page, '/');
  await acceptCookies(page);
  await page
    .getByRole('button', { name: isMobile(page) ? 'Выкуп' : 'Заявка на выкуп', exact: true })
    .first()
    .click();

  const modal = page.getByRole('dialog', { name: 'Заявка на поиск и выкуп товара' });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('безопасная сделка');
  await expect(modal).toContainText('14 дней');
  await modal.getByRole('button', { name: 'Подробнее' }).click();
  await expect(modal).toContainText('Менеджер свяжется с вами');
  await modal.getByRole('button', { name: 'К созданию заявки' }).click();

  const name = modal.getByLabel('Имя *');
  const phone = modal.getByLabel('Телефон *');
  const submit = modal.getByRole('button', { name: 'Отправить заявку' });
  await expect(phone).toHaveAttribute('placeholder', '+7 (000) 000-00-00');

  // Validation on blur, with the spec's message.
  await name.fill('А');
  await name.blur();
  await expect(modal.getByText('Имя должно содержать минимум 2 буквы')).toBeVisible();
  await name.fill('Анна');
  await name.blur();
  await expect(modal.getByText('Имя должно содержать минимум 2 буквы')).toBeHidden();

  await phone.pressSequentially('9161234567');
  await expect(phone).toHaveValue('+7 (916) 123-45-67');

  // Submit stays disabled unless both agreements are ticked.
  await modal.getByLabel(/Согласен получать информацию/).uncheck();
  await expect(submit).toBeDisabled();
  await modal.getByLabel(/Согласен получать информацию/).check();
  await expect(submit).toBeEnabled();

  // The messenger select: a dropdown on desktop, a modal list on phones.
  await modal.getByRole('button', { name: /Мессенджер для связи/ }).click();
  await page.getByRole('option', { name: 'Viber' }).click();
  await expect(modal.getByRole('button', { name: /Мессенджер для связи/ })).toContainText('Viber');

  // The tooltip: a bubble next to the trigger on desktop, a modal on phones (spec §9).
  await modal.getByRole('button', { name: 'Зачем нужна ссылка' }).click();
  if (isMobile(page)) {
    const help = page.getByRole('dialog', { name: 'Зачем нужна ссылка' });
    await expect(help).toContainText('найти именно эту модель');
    await help.getByRole('button', { name: 'Закрыть' }).click();
  } else {
    await expect(page.getByRole('tooltip')).toContainText('найти именно эту модель');
    await modal.getByLabel('Описание товара').click();
    await expect(page.getByRole('tooltip')).toBeHidden();
  }

  // A server field error: the request is altered on its way so the real server rejects the name.
  await page.route(
    '**/redemption-request/',
    async (route) => {
      const body = JSON.parse(route.request().postData() ?? '{}');
      await route.continue({ postData: JSON.stringify({ ...body, name: 'Я' }) });
    },
    { times: 1 },
  );
  await submit.click();
  await expect(modal.getByText('Имя должно содержать минимум 2 буквы')).toBeVisible();
  await expect(modal).toBeVisible();

  const description = `Ищу сумку Kelly 25, ${Date.now()}`;
  await modal.getByLabel('Описание товара').fill(description);
  await submit.click();
  const thanks = page.getByRole('dialog', { name: 'Ваша заявка успешно отправлена' });
  await expect(thanks).toBeVisible();
  await expect(modal).toBeHidden();
  await thanks.getByRole('button', { name: 'Продолжить шоппинг' }).click();
  await expect(thanks).toBeHidden();

  // The managers' e-mail landed in the outbox of the test server.
  const { dataDir } = JSON.parse(readFileSync(e2eInfoFile(e2ePort()), 'utf8')) as { dataDir: string };
  const outbox = join(dataDir, 'outbox');
  await expect.poll(() => readdirSync(outbox).some((f) => readFileSync(join(outbox, f), 'utf8').includes('Viber'))).toBe(true);
});
