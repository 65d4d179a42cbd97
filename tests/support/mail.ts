// Reads the .eml files the server writes to DATA_DIR/outbox (src/lib/mail.server.ts) back as text:
// headers as written, bodies decoded from base64 or quoted-printable.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface OutboxMail {
  name: string;
  raw: string;
  to: string;
  /** Every text part, decoded and joined. */
  body: string;
}

function decodePart(part: string): string {
  const split = part.search(/\r?\n\r?\n/);
  if (split === -1) return '';
  const headers = part.slice(0, split).toLowerCase();
  const content = part.slice(split).trim();
  if (!headers.includes('content-type: text/')) return '';
  if (headers.includes('content-transfer-encoding: base64')) return Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (headers.includes('content-transfer-encoding: quoted-printable')) {
    const bytes = content.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => `%${hex}`);
    try {
      return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
    } catch {
      return bytes;
    }
  }
  return content;
}

export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = join(dataDir, 'outbox');
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    const raw = readFileSync(join(dir, name), 'utf8');
    const to = /^To: (.+)$/m.exec(raw)?.[1]?.trim() ?? '';
    const boundary = /boundary="?([^"\r\n;]+)"?/.exec(raw)?.[1];
    const parts = boundary ? raw.split(`--${boundary}`) : [raw];
    return { name, raw, to, body: parts.map(decodePart).join('\n') };
  });
}

/** Waits for a mail to an address (the server writes some after answering). */
export async function waitForMail(dataDir: string, to: string, predicate: (mail: OutboxMail) => boolean = () => true, timeoutMs = 10_000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readOutbox(dataDir)
      .reverse()
      .find((m) => m.to.toLowerCase().includes(to.toLowerCase()) && predicate(m));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in the outbox`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The password reset link in a mail. */
export function resetLink(mail: OutboxMail): string {
  const link = /https?:\/\/[^\s"<>]+\/password\/reset\?token=[A-Za-z0-9_-]+/.exec(mail.body)?.[0];
  if (!link) throw new Error('no reset link in the mail');
  return link;
}
