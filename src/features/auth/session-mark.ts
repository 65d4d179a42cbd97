// Whether this browser holds a stored session, on <html data-session> before the first paint. Public pages
// are the same HTML for everyone (DESIGN §4), so the header and the bottom navigation carry both forms of
// the account, orders and wishlist controls — a customer's link, a guest's button that opens the login
// dialog without script (spec §2) — and CSS shows the one that applies, from the first paint, with no
// island in the way (docs/decisions/021). No imports: the build's config reads it (the CSP hash).

/** Where the session is stored (spec §9). */
export const SESSION_KEY = 'session';

/** The head's boot line (inline, allowed by its hash). */
export const SESSION_MARK_BOOT = `try{if(localStorage.getItem('${SESSION_KEY}'))document.documentElement.dataset.session=''}catch(e){}`;

/** Keeps the mark with the session as it changes (login, logout, another tab). */
export function markSession(signedIn: boolean): void {
  if (typeof document !== 'undefined') document.documentElement.toggleAttribute('data-session', signedIn);
}
