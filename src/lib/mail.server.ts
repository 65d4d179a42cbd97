// Outgoing mail (DESIGN §1): every message is recorded in mail_outbox, then sent over SMTP when SMTP_URL
// is set, or written as an .eml file to DATA_DIR/outbox/ so it can be read without a mail server.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { getDb } from './db/index.ts';
import { mailOutbox } from './db/schema.ts';
import { env } from './env.ts';
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
