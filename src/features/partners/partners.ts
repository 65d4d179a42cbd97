// The partner (referral) programme, safe on both sides (spec §1, §3): the statistics' columns and how a
// referral code travels from a link to a registration.

/** spec §3 partner statistics columns (the spec's spelling of comission_earned kept). */
export const STATISTICS_COLUMNS = ['date', 'traffic', 'referrals', 'orders', 'packages', 'comission_earned', 'commission_withdrawn'] as const;

export interface PartnerStatisticsRow {
  date: string;
  traffic: number;
  referrals: number;
  orders: number;
  packages: number;
  comission_earned: number;
  commission_withdrawn: number;
}

/** The browser keeps the code it arrived with until the visitor registers (or for 30 days). */
export const REFERRAL_STORAGE_KEY = 'referral';
export const REFERRAL_DAYS = 30;

/** A code as links carry it: letters and digits, at most 32. */
export function cleanReferralCode(value: string | null | undefined): string | null {
  const code = (value ?? '').trim().toLowerCase();
  return /^[a-z0-9]{4,32}$/.test(code) ? code : null;
}
