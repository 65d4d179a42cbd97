// Stores a buyout request and tells the shop's managers about it by e-mail.
import { getDb } from '~/lib/db/index.ts';
import { buyoutRequests } from '~/lib/db/schema.ts';
import { env } from '~/lib/env.ts';
import { escapeHtml } from '~/lib/html.ts';
import { sendMail } from '~/lib/mail.server.ts';
import { t } from '~/lib/i18n/index.ts';
import { MESSENGER_LABELS, type BuyoutRequest } from './buyout.ts';

export const BUYOUT_LIMIT = { max: 5, windowSeconds: 600 } as const;

export async function createBuyoutRequest(input: BuyoutRequest, meta: { ip: string; customerId?: number }): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .insert(buyoutRequests)
    .values({
      name: input.name,
      phone: input.phone,
      messenger: input.messenger,
      description: input.description,
      productUrl: input.product_url,
      images: input.images,
      agreementPersonal: input.agreementPersonal,
      agreementPromo: input.agreementPromo,
      customerId: meta.customerId ?? null,
      ip: meta.ip,
    })
    .returning({ id: buyoutRequests.id });
  const id = row?.id ?? 0;
  // The shop's managers read Russian, whatever the visitor's language.
  const l = (key: Parameters<typeof t>[1], params?: Parameters<typeof t>[2]) => t('ru', key, params);
  const lines: [string, string][] = [
    [l('buyout.name'), input.name],
    [l('buyout.phone'), input.phone],
    [l('buyout.messenger'), MESSENGER_LABELS[input.messenger]],
    [l('buyout.productUrl'), input.product_url || '—'],
    [l('buyout.mail.description'), input.description || '—'],
    [l('buyout.mail.promo'), input.agreementPromo ? l('ui.yes') : l('ui.no')],
  ];
  // The request in the console's inbox (issue 24), where it is taken and tracked.
  const inbox = new URL(`/ops/buyout/${id}`, env().SITE_URL).href;
  await sendMail({
    to: env().MANAGERS_EMAIL,
    subject: l('buyout.mail.subject', { id, name: input.name }),
    text: `${lines.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${l('buyout.mail.open')}: ${inbox}`,
    // What the visitor typed is escaped: the request may contain HTML or script.
    html: `<h2>${l('buyout.mail.title', { id })}</h2><table>${lines.map(([k, v]) => `<tr><th align="left">${k}</th><td>${escapeHtml(v).replace(/\n/g, '<br>')}</td></tr>`).join('')}</table><p><a href="${escapeHtml(inbox)}">${l('buyout.mail.open')}</a></p>`,
  });
  return id;
}
