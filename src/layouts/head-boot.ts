// DefaultLayout's one inline head script, and the hash the build allows it by (astro.config.mjs): one text
// for both, so the policy cannot fall behind a line added to the script.
import { COOKIE_CONSENT_BOOT } from '../components/ui/cookie-consent.ts';
import { SESSION_MARK_BOOT } from '../features/auth/session-mark.ts';
import { REST_CSS_BOOT } from '../lib/http/first-paint-css.ts';

/** The cookie notice's and the session mark's boot lines, the deferred stylesheets' switch. */
export const HEAD_BOOT = COOKIE_CONSENT_BOOT + SESSION_MARK_BOOT + REST_CSS_BOOT;
