// Partners on the server (spec §1, §3): each customer's referral code and link, visits counted when
// someone arrives with ?ref=, registrations attributed (auth.server.ts), and the daily statistics.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { partnerVisits, partners } from '~/lib/db/schema.ts';
import { env } from '~/lib/env.ts';
import type { PartnerStatisticsRow } from './partners.ts';

export interface PartnerProgramme {
  code: string;
  link: string;
  commission_percent: number;
  statistics: PartnerStatisticsRow[];
  totals: Omit<PartnerStatisticsRow, 'date'>;
}

/** The customer's partner record, made on first use with a code nobody else has. */
export async function partnerOf(customerId: number): Promise<typeof partners.$inferSelect> {
  const db = await getDb();
  for (let attempt = 0; attempt < 5; attempt++) {
    const [existing] = await db.select().from(partners).where(eq(partners.customerId, customerId)).limit(1);
    if (existing) return existing;
    // 8 characters of base 36: about 2.8·10^12 codes; a clash just tries again.
    const code = BigInt(`0x${randomBytes(6).toString('hex')}`)
      .toString(36)
      .padStart(8, '0')
      .slice(-8);
    await db.insert(partners).values({ customerId, code }).onConflictDoNothing();
  }
  throw new Error('no partner code could be made');
}

export function referralLink(code: string): string {
  const url = new URL('/', env().SITE_URL);
  url.searchParams.set('ref', code);
  return url.href;
}

/** Days of statistics the dashboard shows. */
export const STATISTICS_DAYS = 30;

export async function partnerProgramme(customerId: number): Promise<PartnerProgramme> {
  const partner = await partnerOf(customerId);
  const db = await getDb();
  // One row per day with any activity in the last 30 days, newest first. Orders and packages are those of
  // referred customers (the cart issue places them); commissions come from their own ledger.
  const rows = await selectRows<Record<keyof PartnerStatisticsRow, string | number>>(
    db,
    sql`WITH days AS (
          SELECT created_at::date AS day, count(*) AS traffic, 0 AS referrals, 0 AS orders, 0 AS packages, 0 AS earned, 0 AS withdrawn
            FROM partner_visits WHERE partner_id = ${partner.id} AND created_at > now() - make_interval(days => ${STATISTICS_DAYS}) GROUP BY 1
          UNION ALL
          SELECT created_at::date, 0, count(*), 0, 0, 0, 0
            FROM customers WHERE referred_by_partner_id = ${partner.id} AND created_at > now() - make_interval(days => ${STATISTICS_DAYS}) GROUP BY 1
          UNION ALL
          SELECT o.created_at::date, 0, 0, count(DISTINCT o.id), coalesce(sum(l.quantity), 0), 0, 0
            FROM orders o JOIN customers c ON c.id = o.customer_id LEFT JOIN order_lines l ON l.order_id = o.id
            WHERE c.referred_by_partner_id = ${partner.id} AND o.status <> 'cancelled'
              AND o.created_at > now() - make_interval(days => ${STATISTICS_DAYS}) GROUP BY 1
          UNION ALL
          SELECT created_at::date, 0, 0, 0, 0,
                 coalesce(sum(amount) FILTER (WHERE kind = 'earned'), 0), coalesce(sum(amount) FILTER (WHERE kind = 'withdrawn'), 0)
            FROM partner_commissions WHERE partner_id = ${partner.id} AND created_at > now() - make_interval(days => ${STATISTICS_DAYS}) GROUP BY 1
        )
        SELECT to_char(day, 'YYYY-MM-DD') AS date, sum(traffic) AS traffic, sum(referrals) AS referrals, sum(orders) AS orders,
               sum(packages) AS packages, sum(earned) AS comission_earned, sum(withdrawn) AS commission_withdrawn
          FROM days GROUP BY day ORDER BY day DESC`,
  );
  const statistics = rows.map((r) => ({
    date: String(r.date),
    traffic: Number(r.traffic),
    referrals: Number(r.referrals),
    orders: Number(r.orders),
    packages: Number(r.packages),
    comission_earned: Number(r.comission_earned),
    commission_withdrawn: Number(r.commission_withdrawn),
  }));
  const sum = (key: keyof Omit<PartnerStatisticsRow, 'date'>) => statistics.reduce((s, r) => s + r[key], 0);
  return {
    code: partner.code,
    link: referralLink(partner.code),
    commission_percent: partner.commissionBp / 100,
    statistics,
    totals: {
      traffic: sum('traffic'),
      referrals: sum('referrals'),
      orders: sum('orders'),
      packages: sum('packages'),
      comission_earned: sum('comission_earned'),
      commission_withdrawn: sum('commission_withdrawn'),
    },
  };
}

/**
 * A visit through a referral link: counted once per visitor and day (the visitor is a hash of the IP
 * and the day, so no address is kept). Unknown codes count nothing.
 */
export async function recordVisit(code: string, ip: string, landing: string): Promise<boolean> {
  const db = await getDb();
  const [partner] = await db.select({ id: partners.id }).from(partners).where(eq(partners.code, code)).limit(1);
  if (!partner) return false;
  const day = new Date().toISOString().slice(0, 10);
  const ipHash = createHash('sha256').update(`${ip}|${day}|${partner.id}`).digest('hex').slice(0, 32);
  const [seen] = await db
    .select({ id: partnerVisits.id })
    .from(partnerVisits)
    .where(and(eq(partnerVisits.partnerId, partner.id), eq(partnerVisits.ipHash, ipHash), gt(partnerVisits.createdAt, sql`now() - interval '1 day'`)))
    .limit(1);
  if (seen) return false;
  await db.insert(partnerVisits).values({ partnerId: partner.id, ipHash, landing: landing.slice(0, 300) });
  return true;
}
