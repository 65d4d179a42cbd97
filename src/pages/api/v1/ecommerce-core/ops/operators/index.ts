// Beyond the spec (docs/operations.md "Operators"): `npm run operator` hands its work to the shop that owns
// the embedded database, with the operator token (header x-operator-token): list, add, disable, reset-2fa.
import { z } from '~/lib/zod.ts';
import { addOperator, disableOperator, listOperators, resetTwoFactor, type Actor } from '~/features/ops/ops.server.ts';
import { operatorEmailSchema, operatorRoleSchema, OPERATOR_ROLES } from '~/features/ops/ops.ts';
import { endpoint } from '~/lib/http/endpoint.ts';
import { ok } from '~/lib/http/envelope.ts';
import { forbidden } from '~/lib/http/errors.ts';
import { isOperator } from '~/lib/operator-token.ts';

const operatorView = z.object({
  id: z.number(),
  email: z.string(),
  role: z.enum(OPERATOR_ROLES),
  totp_confirmed: z.boolean(),
  disabled: z.boolean(),
});
const enrolment = z.object({ operator: operatorView, setup_url: z.string(), otpauth: z.string() });

const view = (o: { id: number; email: string; role: (typeof OPERATOR_ROLES)[number]; totp_confirmed_at: Date | null; disabled_at: Date | null }) => ({
  id: o.id,
  email: o.email,
  role: o.role,
  totp_confirmed: o.totp_confirmed_at !== null,
  disabled: o.disabled_at !== null,
});

export const GET = endpoint({
  summary: 'The console’s operators (403 without the operator token)',
  response: z.array(operatorView),
  async handler({ request }) {
    if (!isOperator(request.headers.get('x-operator-token'))) throw forbidden();
    return ok((await listOperators()).map(view));
  },
});

export const POST = endpoint({
  summary:
    'Adds an operator, disables one, or resets one’s two-factor (403 without the operator token; 409 for an e-mail taken; 404 for an unknown one; 503 when the shop has no OPS_TOTP_KEY to seal a new secret with). Adding and resetting answer a one-time set-up link and the otpauth URI',
  failures: [404, 409, 503],
  response: z.union([enrolment, operatorView]),
  body: z.discriminatedUnion('action', [
    z.object({ action: z.literal('add'), email: operatorEmailSchema, role: operatorRoleSchema }),
    z.object({ action: z.literal('disable'), email: operatorEmailSchema }),
    z.object({ action: z.literal('reset-2fa'), email: operatorEmailSchema }),
  ]),
  async handler({ request, body, context }) {
    if (!isOperator(request.headers.get('x-operator-token'))) throw forbidden();
    const actor: Actor = { operatorId: null, name: 'operator-token', ip: context.clientAddress };
    if (body.action === 'disable') return ok(view(await disableOperator(body.email, actor)));
    const made = body.action === 'add' ? await addOperator(body.email, body.role, actor) : await resetTwoFactor(body.email, actor);
    return ok({ operator: view(made.operator), setup_url: made.setupUrl, otpauth: made.otpauth });
  },
});
