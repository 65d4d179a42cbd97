// spec §7: POST /api/v1/ecommerce-core/redemption-request/ — field errors under data.data.
import { buyoutSchema } from '~/features/buyout/buyout.ts';
import { BUYOUT_LIMIT, createBuyoutRequest } from '~/features/buyout/buyout.server.ts';
import { noteConsent } from '~/features/account/account.privacy.server.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { fail, ok } from '~/lib/http/envelope.ts';
import { enforce } from '~/lib/http/rate-limit.server.ts';
import { z } from '~/lib/zod.ts';

export const POST = endpoint({
  summary: 'spec §7: a buyout request; field errors under data.data',
  failures: [429],
  response: z.object({ id: z.number().int().nullable() }),
  statuses: [201],
  body: buyoutSchema,
  onInvalid: (errors, message) => fail(422, message, { errors, data: { data: errors } }),
  async handler({ body, context, t }) {
    await enforce({ key: `buyout:${context.clientAddress}`, ...BUYOUT_LIMIT });
    // A filled honeypot looks like success to the bot and stores nothing.
    if (body.website) return ok({ id: null }, { status: 201 });
    const id = await createBuyoutRequest(body, { ip: context.clientAddress });
    // The form's two boxes (spec §3: both required) are the consents, recorded with the policy's version.
    await noteConsent({ purpose: 'personal_data', source: 'buyout', given: body.agreementPersonal, phone: body.phone });
    await noteConsent({ purpose: 'marketing', source: 'buyout', given: body.agreementPromo, phone: body.phone });
    return ok({ id }, { status: 201, message: t('buyout.thanksTitle') });
  },
});
