// Outgoing mail (DESIGN §1): every message is recorded in mail_outbox, then sent over SMTP when SMTP_URL
// is set, or written as an .eml file to DATA_DIR/outbox/ so it can be read without a mail server.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { getDb } from './db/index.ts';
import { mailOutbox } from './db/schema.ts';
import { env } from './env.ts';
import { escapeHtml } from './html.ts';
import { loggableError, logger } from './log.ts';

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
  const message = { from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) };
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

/** Records the mail and delivers it; a delivery failure is logged on the row, never thrown at the caller. */
export async function sendMail(mail: Mail): Promise<number> {
  const db = await getDb();
  const [row] = await db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
  const id = row?.id ?? 0;
  try {
    await deliver(id, mail);
    await db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, id));
  } catch (error) {
    logger.error({ err: loggableError(error) }, 'mail delivery failed');
    await db
      .update(mailOutbox)
      .set({ error: String(error).slice(0, 1000) })
      .where(eq(mailOutbox.id, id));
  }
  return id;
}

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
