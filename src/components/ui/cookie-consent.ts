// spec §2 cookie notice: acceptance is remembered in this browser's storage.
export const COOKIE_CONSENT_KEY = 'cookie-accepted';

/** What the head script of DefaultLayout runs before the first paint (kept tiny, inline). */
export const COOKIE_CONSENT_BOOT = `try{if(localStorage.getItem('${COOKIE_CONSENT_KEY}')==='1')document.documentElement.dataset.cookies='accepted'}catch(e){}`;

export function acceptCookies(root: HTMLElement, storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(COOKIE_CONSENT_KEY, '1');
  } catch {
    // Private mode: the notice just comes back next time.
  }
  root.dataset['cookies'] = 'accepted';
}
