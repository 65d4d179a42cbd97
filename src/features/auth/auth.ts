// Accounts, safe on both sides and free of zod so the header's island stays small (spec §3, §4, §9;
// DESIGN §4): the stored session and how the server's answer becomes it. Schemas: auth.schema.ts.

/** ASVS 5.0 6.2.1/6.2.9: at least 8 characters, at least 64 allowed (128 here), no composition rules. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** spec §9: the session is refreshed every 5 minutes. */
export const REFRESH_INTERVAL_MS = 5 * 60 * 1000;

/** spec §3: user / customer basic info; missing text fields default to ''. */
export interface User {
  id: number;
  email: string;
  phone: string;
  name: string;
  surname: string;
  patronymic: string;
}

/** spec §7: what login, refresh and registration answer (amounts in kopecks, like every price the API sends). */
export interface AuthAnswer {
  access_token: string;
  expires_in: number;
  user: User;
  dashboard_content: { balance_amount: number; bonus_amount: number; bonus_available_until: string | null };
}

/** spec §3: missing text fields default to ''; anything without an id and e-mail is no user. */
export function toUser(value: unknown): User | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v['id'] !== 'number' || typeof v['email'] !== 'string') return null;
  const text = (key: string) => (typeof v[key] === 'string' ? (v[key] as string) : '');
  return { id: v['id'], email: v['email'], phone: text('phone'), name: text('name'), surname: text('surname'), patronymic: text('patronymic') };
}

/** spec §3 dashboard summary. */
export interface DashboardSummary {
  balanceAmount: number;
  bonusAmount: number;
  bonusAvailableUntil: string | null;
}

/** spec §3 stored session (browser). */
export interface StoredSession {
  accessToken: string;
  user: User;
  dashboard: DashboardSummary;
}

/** spec §7 refresh: when the answer has no access_token, the old one is kept. */
export function sessionFromAnswer(
  answer: Partial<AuthAnswer> & Pick<AuthAnswer, 'user' | 'dashboard_content'>,
  previous?: StoredSession | null,
): StoredSession | null {
  const accessToken = answer.access_token || previous?.accessToken;
  if (!accessToken) return null;
  const d = answer.dashboard_content;
  return {
    accessToken,
    user: toUser(answer.user) ?? previous?.user ?? { id: 0, email: '', phone: '', name: '', surname: '', patronymic: '' },
    dashboard: { balanceAmount: d.balance_amount, bonusAmount: d.bonus_amount, bonusAvailableUntil: d.bonus_available_until },
  };
}

/** Reads a stored session back from localStorage; anything damaged counts as logged out. */
export function parseStoredSession(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof value.accessToken !== 'string' || !value.accessToken) return null;
    const user = toUser(value.user);
    if (!user) return null;
    const d = value.dashboard;
    return {
      accessToken: value.accessToken,
      user,
      dashboard: {
        balanceAmount: typeof d?.balanceAmount === 'number' ? d.balanceAmount : 0,
        bonusAmount: typeof d?.bonusAmount === 'number' ? d.bonusAmount : 0,
        bonusAvailableUntil: typeof d?.bonusAvailableUntil === 'string' ? d.bonusAvailableUntil : null,
      },
    };
  } catch {
    return null;
  }
}

/** The name the account menu greets with: name and surname, else the e-mail. */
export function displayName(user: Pick<User, 'name' | 'surname' | 'email'>): string {
  return [user.name, user.surname].filter(Boolean).join(' ') || user.email;
}
