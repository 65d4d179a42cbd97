// Beyond the spec (docs/api.md): the customer's referral code and link, and the statistics table (spec §3).
import { z } from '~/lib/zod.ts';
import { requireCustomer } from '~/features/auth/auth.server.ts';
import { partnerProgramme } from '~/features/partners/partners.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';

const counts = {
  traffic: z.number().int(),
  referrals: z.number().int(),
  orders: z.number().int(),
  packages: z.number().int(),
  comission_earned: z.number().int(),
  commission_withdrawn: z.number().int(),
};

export const GET = endpoint({
  summary: 'The partner programme: referral code and link, commission, daily statistics for 30 days and their totals',
  response: z.object({
    code: z.string(),
    link: z.string(),
    commission_percent: z.number(),
    statistics: z.array(z.object({ date: z.string(), ...counts })),
    totals: z.object(counts),
  }),
  async handler({ request }) {
    const { customer } = await requireCustomer(request);
    return ok(await partnerProgramme(customer.id));
  },
});
