// The stored session (spec §3, §4, §9): accessToken, user and dashboard, kept in localStorage so every
// tab and page shares it; the server mirrors the token in an HttpOnly cookie for its page guard. Login
// starts a refresh every 5 minutes; a page that did not just log in refreshes once at start; logout stops
// the refresh and clears everything, in every open tab.
import { atom, computed } from 'nanostores';
import { setAccessToken, setUnauthorizedHandler } from '~/lib/api.client.ts';
import { openModal } from '~/features/frame/frame.store.ts';
import { logoutCall, refreshCall } from './auth.client.ts';
import { markSession, SESSION_KEY } from './session-mark.ts';
import { parseStoredSession, REFRESH_INTERVAL_MS, sessionFromAnswer, type AuthAnswer, type StoredSession } from './auth.ts';

/** When this tab last refreshed or logged in: pages opened within a minute skip the start refresh. */
const REFRESHED_AT_KEY = 'session-refreshed-at';
const FRESH_MS = 60_000;

export const $session = atom<StoredSession | null>(null);
export const $loggedIn = computed($session, (s) => s !== null);

let started = false;
let timer: ReturnType<typeof setInterval> | undefined;

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The token first, then the store: the store's followers call the API at once (the wishlist and the cart
 * on login), and those calls must already carry the new session's token.
 */
function publish(session: StoredSession | null): void {
  setAccessToken(session?.accessToken ?? null);
  $session.set(session);
  markSession(session !== null);
}

function write(session: StoredSession | null): void {
  publish(session);
  const store = storage();
  try {
    if (session) store?.setItem(SESSION_KEY, JSON.stringify(session));
    else store?.removeItem(SESSION_KEY);
  } catch {
    // Storage blocked: the session lives for this page only.
  }
}

function stopRefresh(): void {
  if (timer) clearInterval(timer);
  timer = undefined;
}

function startRefresh(): void {
  stopRefresh();
  timer = setInterval(() => void refreshSession(), REFRESH_INTERVAL_MS);
}

/** Forgets the session here and in every tab, without asking the server (it already said no). */
export function clearSession(): void {
  stopRefresh();
  write(null);
}

/** spec §7 refresh: a new token, or, when the answer has none, the one held (or a newer one another tab stored). */
export async function refreshSession(): Promise<void> {
  const current = $session.get();
  if (!current) return;
  try {
    const answer = await refreshCall(current.accessToken);
    const stored = parseStoredSession(storage()?.getItem(SESSION_KEY) ?? null);
    // Another tab may have rotated the token meanwhile: its newer token wins over the one this tab held.
    const base = !answer.access_token && stored && stored.accessToken !== current.accessToken ? stored : current;
    const next = sessionFromAnswer(answer, base);
    if (next) write(next);
    storage()?.setItem(REFRESHED_AT_KEY, String(Date.now()));
  } catch (error) {
    // A 401 has already cleared the session (the unauthorized handler); a network error keeps it for the next try.
    void error;
  }
}

/** Login or registration succeeded: store the session and start refreshing (no start refresh needed). */
export function startSession(answer: AuthAnswer): void {
  const session = sessionFromAnswer(answer, null);
  if (!session) return;
  write(session);
  storage()?.setItem(REFRESHED_AT_KEY, String(Date.now()));
  startRefresh();
}

/** The side menu's 'Выйти': the server ends the login, every tab forgets it. */
export async function logout(): Promise<void> {
  const token = $session.get()?.accessToken;
  clearSession();
  if (token) await logoutCall(token).catch(() => undefined);
}

/** Updates the user in the stored session after the profile was saved. */
export function updateSessionUser(user: StoredSession['user']): void {
  const current = $session.get();
  if (current) write({ ...current, user });
}

/**
 * Called by every island that needs the session (idempotent): reads the stored session, refreshes once
 * unless this page just logged in, starts the 5-minute refresh and follows other tabs.
 */
export function initSession(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  const session = parseStoredSession(storage()?.getItem(SESSION_KEY) ?? null);
  publish(session);
  // spec: a 401 from any call clears the session and opens the login modal.
  setUnauthorizedHandler(() => {
    clearSession();
    openModal('auth');
  });
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_KEY && event.key !== null) return;
    const next = parseStoredSession(event.newValue ?? storage()?.getItem(SESSION_KEY) ?? null);
    if (!next) {
      // Logged out in another tab: this one follows, and leaves the account area.
      stopRefresh();
      publish(null);
      if (location.pathname.startsWith('/dashboard')) location.replace('/');
      return;
    }
    publish(next);
    if (!timer) startRefresh();
  });
  if (!session) return;
  const refreshedAt = Number(storage()?.getItem(REFRESHED_AT_KEY) ?? 0);
  if (Date.now() - refreshedAt > FRESH_MS) void refreshSession();
  startRefresh();
}

/**
 * Calls `change` with the session each time the signed-in customer changes — logged in, logged out,
 * another account — and once at once; refreshes of the same login do not count.
 */
export function onCustomerChange(change: (session: StoredSession | null) => void): () => void {
  let current: number | null | undefined;
  return $session.subscribe((session) => {
    const who = session ? session.user.id : null;
    if (who === current) return;
    current = who;
    change(session);
  });
}
