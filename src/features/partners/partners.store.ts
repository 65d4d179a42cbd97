// The referral code a visitor arrived with (?ref=): counted as a visit once, kept in localStorage for 30
// days and sent with the registration. Done in the browser so every page stays the same for everyone.
import { referralVisitCall } from '~/features/auth/auth.client.ts';
import { cleanReferralCode, REFERRAL_DAYS, REFERRAL_STORAGE_KEY } from './partners.ts';

const DAY_MS = 86_400_000;

/** Reads ?ref= from the address, remembers it and reports the visit. */
export function captureReferral(url: URL = new URL(location.href), storage: Storage | undefined = globalThis.localStorage): void {
  const code = cleanReferralCode(url.searchParams.get('ref'));
  if (!code || !storage) return;
  try {
    storage.setItem(REFERRAL_STORAGE_KEY, JSON.stringify({ code, at: Date.now() }));
  } catch {
    return;
  }
  void referralVisitCall(code, url.pathname).catch(() => undefined);
}

/** The remembered code while it is fresh, forgotten once used. */
export function takeReferralCode(storage: Storage | undefined = globalThis.localStorage, now = Date.now()): string | null {
  try {
    const saved = JSON.parse(storage?.getItem(REFERRAL_STORAGE_KEY) ?? 'null') as { code?: string; at?: number } | null;
    storage?.removeItem(REFERRAL_STORAGE_KEY);
    if (!saved || typeof saved.at !== 'number' || now - saved.at > REFERRAL_DAYS * DAY_MS) return null;
    return cleanReferralCode(saved.code);
  } catch {
    return null;
  }
}
