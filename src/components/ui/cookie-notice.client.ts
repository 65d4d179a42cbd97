// The cookie notice's button (CookieNotice.astro): the notice says it is ready once the button answers.
import { acceptCookies } from './cookie-consent.ts';

export function bootCookieNotice(): void {
  const notice = document.querySelector<HTMLElement>('[data-cookie-notice]');
  notice?.querySelector('[data-accept]')?.addEventListener('click', () => acceptCookies(document.documentElement));
  notice?.setAttribute('data-ready', '');
}
