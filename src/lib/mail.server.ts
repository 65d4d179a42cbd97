// Outgoing mail (DESIGN §1): every message is recorded in mail_outbox, then sent over SMTP when SMTP_URL
// is set, or written as an .eml file to DATA_DIR/outbox/ so it can be read without a mail server.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { selectRows } from './db/client.ts';
import { getDb } from './db/index.ts';
import { mailOutbox } from './db/schema.ts';
import { env } from './env.ts';
import { escapeHtml } from './html.ts';
import { loggableError, logger } from './log.ts';
import { readAtScrape, metrics } from './metrics.ts';
import { beforeExit, STOP_ORDER } from './runtime.ts';
import { t } from './i18n/index.ts';
import { unsubscribeUrl } from './unsubscribe.server.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export function outboxDir(): string {
  return resolve(env().DATA_DIR, 'outbox');
}

let smtp: Transporter | undefined;
// Builds the RFC 822 message without sending it: the .eml written to the outbox.
const fileTransport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

async function deliver(id: number, mail: Mail): Promise<void> {
  const config = env();
  const headers = await listUnsubscribe(mail.to);
  const message = {
    from: config.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
    ...(headers ? { headers } : {}),
  };
  if (config.SMTP_URL) {
    smtp ??= nodemailer.createTransport(config.SMTP_URL);
    await smtp.sendMail(message);
  } else {
    const info = await fileTransport.sendMail(message);
    await mkdir(outboxDir(), { recursive: true });
    const path = join(outboxDir(), `${String(id).padStart(6, '0')}.eml`);
    await writeFile(path, info.message as Buffer);
    // The address stays out of the log (personal data); the file holds it.
    console.log(`[mail] "${mail.subject}" written to ${path}`);
  }
}

// Deliveries under way in this process: a stopping process waits for them (src/lib/runtime.ts).
const delivering = new Set<Promise<unknown>>();
beforeExit('outbox', STOP_ORDER.outbox, () => Promise.allSettled([...delivering]));

/** Minutes before a failed delivery's next try: 1, 2, 4 … up to 6 hours; after MAX_ATTEMPTS it stays failed. */
export const MAX_ATTEMPTS = 10;
export function retryDelayMinutes(attempts: number): number {
  return Math.min(2 ** Math.max(0, attempts - 1), 360);
}

/** One try of one recorded mail; the row says how it went. */
async function attempt(id: number, mail: Mail, attempts: number): Promise<boolean> {
  const db = await getDb();
  const run = (async () => {
    try {
      await deliver(id, mail);
      await db.execute(sql`UPDATE mail_outbox SET sent_at = now(), error = NULL, attempts = ${attempts}, next_attempt_at = NULL WHERE id = ${id}`);
      metrics().mail.inc({ outcome: 'sent' });
      return true;
    } catch (error) {
      metrics().mail.inc({ outcome: 'failed' });
      logger.error({ mail: id, attempts, err: loggableError(error) }, 'mail delivery failed');
      await db.execute(
        sql`UPDATE mail_outbox SET error = ${String(error).slice(0, 1000)}, attempts = ${attempts},
              next_attempt_at = now() + make_interval(mins => ${retryDelayMinutes(attempts)}) WHERE id = ${id}`,
      );
      return false;
    }
  })();
  delivering.add(run);
  try {
    return await run;
  } finally {
    delivering.delete(run);
  }
}

/**
 * Every mail to a shopper ends with the way to withdraw marketing consent (152-ФЗ, issue 54): a signed link
 * to /unsubscribe. The managers' own mail has none.
 */
const toShopper = (to: string) => to.trim().toLowerCase() !== env().MANAGERS_EMAIL.trim().toLowerCase();

async function withFooter(mail: Mail): Promise<Mail> {
  if (!toShopper(mail.to)) return mail;
  const url = await unsubscribeUrl(mail.to);
  const line = t('ru', 'mail.unsubscribe');
  const html = `<p style="color:#777;font-size:12px;border-top:1px solid #ddd;padding-top:12px">${escapeHtml(line)} <a href="${escapeHtml(url)}" style="color:#777">${escapeHtml(t('ru', 'mail.unsubscribeAction'))}</a></p>`;
  return {
    ...mail,
    text: `${mail.text}\n\n--\n${line} ${t('ru', 'mail.unsubscribeAction')}: ${url}`,
    ...(mail.html ? { html: mail.html.includes('</body>') ? mail.html.replace('</body>', `${html}</body>`) : mail.html + html } : {}),
  };
}

/** The one-click unsubscribe of RFC 8058, for mail programs that offer it beside the sender. */
async function listUnsubscribe(to: string): Promise<Record<string, string> | undefined> {
  if (!toShopper(to)) return undefined;
  const page = new URL(await unsubscribeUrl(to));
  const api = new URL('/api/v1/ecommerce-core/newsletter/unsubscribe', page);
  api.search = page.search;
  return { 'List-Unsubscribe': `<${api.href}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/** Records the mail and delivers it; a delivery failure is logged on the row (and retried later), never thrown at the caller. */
export async function sendMail(mail: Mail): Promise<number> {
  const db = await getDb();
  // The copy kept and the mail sent are the same, footer included (a retry sends the kept copy).
  const footed = await withFooter(mail);
  const [row] = await db.insert(mailOutbox).values(footed).returning({ id: mailOutbox.id });
  const id = row?.id ?? 0;
  await attempt(id, footed, 1);
  return id;
}

/**
 * Housekeeping: mail whose delivery failed, once its back-off has passed, and mail recorded but never
 * tried (the process ended between the two) a quarter of an hour on — past any delivery still under way.
 * Each row is claimed for ten minutes first, so two runs never send one mail twice. Answers how many went out.
 */
export async function retryOutbox(limit = 50): Promise<number> {
  const db = await getDb();
  const due = await selectRows<{ id: number; to: string; subject: string; text: string; html: string | null; attempts: number }>(
    db,
    sql`UPDATE mail_outbox SET next_attempt_at = now() + interval '10 minutes'
          WHERE id IN (SELECT id FROM mail_outbox
                        WHERE sent_at IS NULL AND attempts < ${MAX_ATTEMPTS}
                          AND (CASE WHEN attempts = 0 THEN created_at < now() - interval '15 minutes' ELSE coalesce(next_attempt_at, now()) <= now() END)
                        ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING id, "to", subject, text, html, attempts`,
  );
  let sent = 0;
  for (const row of due) {
    const ok = await attempt(row.id, { to: row.to, subject: row.subject, text: row.text, ...(row.html ? { html: row.html } : {}) }, row.attempts + 1);
    if (ok) sent++;
  }
  return sent;
}

// What waits in the outbox, for the metrics: not yet sent, and given up on.
readAtScrape(
  'gauge',
  'shop_mail_outbox_depth',
  'Mail recorded and not yet sent, by state: waiting (for a try) or failed (tried MAX_ATTEMPTS times)',
  ['state'],
  async () => {
    const [row] = await selectRows<{ waiting: number; failed: number }>(
      await getDb(),
      sql`SELECT count(*) FILTER (WHERE attempts < ${MAX_ATTEMPTS})::int AS waiting, count(*) FILTER (WHERE attempts >= ${MAX_ATTEMPTS})::int AS failed
          FROM mail_outbox WHERE sent_at IS NULL`,
    );
    return [
      { labels: { state: 'waiting' }, value: row?.waiting ?? 0 },
      { labels: { state: 'failed' }, value: row?.failed ?? 0 },
    ];
  },
);

/** The shop's one mail look: a title, paragraphs and an optional button, as text and HTML. */
export function mailLayout(title: string, paragraphs: string[], action?: { label: string; url: string }): { text: string; html: string } {
  const text = [title, '', ...paragraphs, ...(action ? ['', `${action.label}: ${action.url}`] : []), '', 'Brandshop'].join('\n');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#111;color:#fff;padding:12px 20px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p><p style="color:#555;font-size:13px">${escapeHtml(action.url)}</p>`
    : '';
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#111;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:20px">${escapeHtml(title)}</h1>${paragraphs
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('')}${button}<p style="color:#555">Brandshop</p></body></html>`;
  return { text, html };
}

/** How long a sent mail's copy is kept (it holds the recipient and what was written): long enough to answer a "did you send it?". */
export const SENT_MAIL_DAYS = 90;

/** Deletes the copies of mail sent (or given up on) more than SENT_MAIL_DAYS ago (the housekeeping job, 152-ФЗ); the rows deleted. */
export async function deleteOldMail(): Promise<number> {
  const gone = await selectRows(
    await getDb(),
    sql`DELETE FROM mail_outbox WHERE created_at < now() - make_interval(days => ${SENT_MAIL_DAYS})
          AND (sent_at IS NOT NULL OR attempts >= ${MAX_ATTEMPTS}) RETURNING id`,
  );
  return gone.length;
}
