// Customer accounts in the browser (issue 8), at 1440 and 390 px: register from the modal, the account
// menu changes, a reload keeps the session, every dashboard page opens, the profile is edited, the
// referral link copied, logout lands on /; a guest is sent home; a logout in one tab logs out the other;
// the reset link from the e-mail sets a new password.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, e2ePort } from './fixtures.ts';
import { hydrated, isMobile, open } from './helpers.ts';
import { e2eInfoFile } from '../support/server.ts';
import { resetLink, waitForMail } from '../support/mail.ts';

const PASSWORD = 'осенний лист кружит';
const email = () => `e2e.${randomBytes(5).toString('hex')}@example.ru`;
const dataDir = () => (JSON.parse(readFileSync(e2eInfoFile(e2ePort()), 'utf8')) as { dataDir: string }).dataDir;

/** The account entry: the header's button on desktop, the bottom navigation's item on phones. */
function accountButton(page: Page) {
  return isMobile(page)
    ? page.getByRole('navigation', { name: 'Мобильная навигация' }).getByRole('button', { name: 'Профиль' })
    : page.getByRole('banner').getByRole('button', { name: 'Личный кабинет' });
}

/** The account menu: the header's dropdown on desktop, the 'Личный кабинет' overlay on phones. */
async function openAccountMenu(page: Page) {
  await accountButton(page).click();
  return isMobile(page)
    ? page.getByRole('dialog', { name: 'Личный кабинет' })
    : page.getByRole('banner').getByRole('navigation', { name: 'Меню личного кабинета' });
}

async function registerFromModal(page: Page, address: string) {
  await open(page, '/');
  await accountButton(page).click();
  const modal = page.getByRole('dialog', { name: 'Личный кабинет' });
  await modal.getByRole('tab', { name: 'Регистрация' }).click();
  const form = modal.getByRole('form', { name: 'Регистрация' });
  await form.getByLabel('Email').fill(address);
  await form.getByLabel('Телефон').pressSequentially('9991234567');
  await expect(form.getByLabel('Телефон')).toHaveValue('+7 (999) 123-45-67');
  await form.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(page.getByText('Регистрация успешно выполнена')).toBeVisible();
  await expect(modal).toBeHidden();
}

/** Forgets the session in this browser (storage and cookie) and opens the login modal as a guest. */
async function asGuestAgain(page: Page) {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
  await open(page, '/');
  await accountButton(page).click();
  return page.getByRole('dialog', { name: 'Личный кабинет' });
}

test('register from the modal, stay signed in, open every dashboard page, edit the profile, copy the link, log out', async ({ page, context }) => {
  // A journey through eight pages: on a busy 2-core runner it has taken over the default 30 s.
  test.setTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const address = email();
  await registerFromModal(page, address);

  // The account button now opens the account menu instead of the modal.
  let menu = await openAccountMenu(page);
  await expect(menu.getByRole('link', { name: 'Мои данные' })).toBeVisible();
  if (!isMobile(page)) await expect(menu.getByText(address)).toBeVisible();

  await page.reload();
  await hydrated(page);
  menu = await openAccountMenu(page);
  await menu.getByRole('link', { name: 'Личный кабинет' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Личный кабинет' })).toBeVisible();
  await expect(page.getByTestId('balance')).toHaveText('0 ₽');

  for (const [path, title] of [
    ['/dashboard/orders', 'Заказы'],
    ['/dashboard/balance', 'Мой баланс'],
    ['/dashboard/wishlist', 'Избранные'],
    ['/dashboard/partners', 'Партнёрская программа'],
    ['/dashboard/address', 'Адреса доставки'],
    ['/dashboard/profile', 'Мои данные'],
  ] as const) {
    await open(page, path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  }

  // Profile: validation on blur with the spec's message, then a save.
  const profile = page.getByRole('form', { name: 'Мои данные' });
  await profile.getByLabel('Имя').fill('1');
  await profile.getByLabel('Фамилия').focus();
  await expect(profile.getByText('Имя должно содержать минимум 2 буквы')).toBeVisible();
  await profile.getByLabel('Имя').fill('Алиса');
  await profile.getByLabel('Фамилия').fill('Зайцева');
  await profile.getByRole('button', { name: 'Сохранить' }).click();
  await expect(page.getByText('Данные сохранены')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('form', { name: 'Мои данные' }).getByLabel('Имя')).toHaveValue('Алиса');

  // Partners: the link is the shop's address with the code, and the copy button puts it on the clipboard.
  await open(page, '/dashboard/partners');
  const code = (await page.getByTestId('ref-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[a-z0-9]{8}$/);
  await page.getByRole('button', { name: 'Скопировать' }).click();
  await expect(page.getByText('Ссылка скопирована')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/\\?ref=${code}$`));

  // Addresses: add one, it becomes the default.
  await open(page, '/dashboard/address');
  await page.getByRole('button', { name: 'Добавить адрес' }).click();
  const form = page.getByRole('form', { name: 'Добавить адрес' });
  await form.getByLabel('Получатель').fill('Алиса Зайцева');
  await form.getByLabel('Телефон').pressSequentially('9990001122');
  await form.getByLabel('Город').fill('Москва');
  await form.getByLabel('Улица').fill('Петровка');
  await form.getByLabel('Дом').fill('5');
  await form.getByRole('button', { name: 'Сохранить адрес' }).click();
  await expect(page.getByText('Адрес сохранён')).toBeVisible();
  await expect(page.getByText('Основной', { exact: true })).toBeVisible();

  // Logout from the side menu (the account overlay on phones) lands on / as a guest.
  if (isMobile(page)) {
    menu = await openAccountMenu(page);
    await menu.getByRole('button', { name: 'Выйти' }).click();
  } else {
    await page.getByRole('complementary').getByRole('button', { name: 'Выйти' }).click();
  }
  await expect(page).toHaveURL(/\/$/);
  await hydrated(page);
  await accountButton(page).click();
  await expect(page.getByRole('dialog', { name: 'Личный кабинет' }).getByRole('tab', { name: 'Вход' })).toBeVisible();
  // And the account area is closed to this browser again.
  await page.goto('/dashboard/profile');
  await expect(page).toHaveURL(/\/$/);
});

test('a guest opening /dashboard/orders lands on /', async ({ page }) => {
  await page.goto('/dashboard/orders');
  await expect(page).toHaveURL(/\/$/);
});

test('login with a wrong password shows the message in red under the form; the right one signs in', async ({ page }) => {
  const address = email();
  await registerFromModal(page, address);
  const form = (await asGuestAgain(page)).getByRole('form', { name: 'Вход' });
  await form.getByLabel('Email').fill(address);
  await form.getByLabel('Пароль', { exact: true }).fill('совсем не тот пароль');
  await form.getByRole('button', { name: 'Войти' }).click();
  await expect(form.getByRole('alert')).toHaveText('Неверный email или пароль');
  await form.getByLabel('Пароль', { exact: true }).fill(PASSWORD);
  await form.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByRole('dialog', { name: 'Личный кабинет' })).toBeHidden();
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Личный кабинет' })).toBeVisible();
});

test('logging out in one tab logs out the other', async ({ page, context }) => {
  await registerFromModal(page, email());
  await open(page, '/dashboard/balance');
  const other = await context.newPage();
  await open(other, '/dashboard/profile');
  await expect(other.getByRole('heading', { level: 1, name: 'Мои данные' })).toBeVisible();
  if (isMobile(page)) {
    const menu = await openAccountMenu(page);
    await menu.getByRole('button', { name: 'Выйти' }).click();
  } else {
    await page.getByRole('complementary').getByRole('button', { name: 'Выйти' }).click();
  }
  await expect(page).toHaveURL(/\/$/);
  // The other tab hears of it through storage and leaves the account area.
  await expect(other).toHaveURL(/\/$/);
});

test('forgot password: the e-mailed link sets a new password and the login modal opens', async ({ page }) => {
  const address = email();
  await registerFromModal(page, address);
  const modal = await asGuestAgain(page);
  await modal.getByRole('button', { name: 'Забыли пароль?' }).click();
  const forgot = modal.getByRole('form', { name: 'Восстановление пароля' });
  await forgot.getByRole('button', { name: 'Назад' }).click();
  await expect(modal.getByRole('tab', { name: 'Вход' })).toBeVisible();
  await modal.getByRole('button', { name: 'Забыли пароль?' }).click();
  await forgot.getByLabel('Email').fill(address);
  await forgot.getByRole('button', { name: 'Отправить ссылку' }).click();
  await expect(page.getByText('Ссылка для сброса пароля отправлена')).toBeVisible();
  await expect(modal).toBeHidden();

  const mail = await waitForMail(dataDir(), address, (m) => m.body.includes('/password/reset?token='));
  const link = new URL(resetLink(mail));
  await open(page, link.pathname + link.search);
  const form = page.getByRole('form', { name: 'Новый пароль' });
  await form.getByLabel('Новый пароль').fill('зимний вечер у окна');
  await form.getByLabel('Повторите пароль').fill('зимний вечер у окна');
  await form.getByRole('button', { name: 'Сохранить пароль' }).click();
  await expect(page.getByText('Пароль изменён. Войдите с новым паролем')).toBeVisible();
  const login = page.getByRole('dialog', { name: 'Личный кабинет' }).getByRole('form', { name: 'Вход' });
  await login.getByLabel('Email').fill(address);
  await login.getByLabel('Пароль', { exact: true }).fill('зимний вечер у окна');
  await login.getByRole('button', { name: 'Войти' }).click();
  await expect(page.getByRole('dialog', { name: 'Личный кабинет' })).toBeHidden();
});

test('my data: the newsletter switched on and off, the data downloaded as a file, the account deleted with the password', async ({ page }) => {
  test.setTimeout(60_000);
  const address = email();
  await registerFromModal(page, address);
  await open(page, '/dashboard/profile');
  const panel = page.getByTestId('privacy-panel');
  await hydrated(page);
  const letters = panel.getByRole('checkbox', { name: /Получать письма о новинках и акциях/ });
  await expect(letters).not.toBeChecked();
  await letters.check();
  await expect(page.getByText('Вы подписаны на новости и акции')).toBeVisible();
  // Kept after a reload.
  await page.reload();
  await expect(page.getByTestId('privacy-panel').getByRole('checkbox', { name: /Получать письма/ })).toBeChecked();

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Скачать мои данные' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^brandshop-personal-data-\d{4}-\d{2}-\d{2}\.json$/);
  expect(JSON.parse(readFileSync((await file.path()) ?? '', 'utf8')).profile.email).toBe(address);

  const form = page.getByRole('form', { name: 'Удалить аккаунт' });
  await form.getByLabel('Пароль для подтверждения').fill('совсем не тот пароль');
  await form.getByRole('button', { name: 'Удалить аккаунт' }).click();
  await expect(form.getByRole('alert')).toHaveText('Неверный пароль');
  await form.getByLabel('Пароль для подтверждения').fill(PASSWORD);
  await form.getByRole('button', { name: 'Удалить аккаунт' }).click();
  await expect(page).toHaveURL(/\/$/);
  // Signed out: the account area is closed to this browser, and the old password opens nothing.
  await page.goto('/dashboard/profile');
  await expect(page).toHaveURL(/\/$/);
});
