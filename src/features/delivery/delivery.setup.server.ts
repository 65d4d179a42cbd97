// The carriers as an owner sets them up (issue 54, docs/delivery.md "Setting a carrier up"): which are
// configured and against which host (CDEK's test host is the default), what is missing, whether the
// credentials work, whether the sender's point is one the carrier knows, and the shop's own webhook
// subscription (CDEK's ORDER_STATUS, made idempotently: asked for only when the account does not have it).
// Checked at start and every 6 hours by a job (one process at a time), and at once from the console's
// /ops/delivery; what a check found and the last error a carrier gave are kept in app_meta, so every
// process and the console see the same.
import { sql } from 'drizzle-orm';
import { selectRows } from '~/lib/db/client.ts';
import { getDb } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { logger } from '~/lib/log.ts';
import { boxberry, carrier } from './delivery.server.ts';
import { CarrierRefused, CarrierUnavailable } from './cdek.server.ts';
import { carrierHost, type CarrierId } from './delivery.ts';
import { ERROR_KEY, keep, words } from './delivery.errors.server.ts';

export type CarrierHost = 'off' | 'test' | 'live' | 'other';

/** A setting a carrier needs for a part of its work, by the variable's name. */
export type MissingSetting = 'DELIVERY_SENDER_POINT' | 'CDEK_WEBHOOK_TOKEN' | 'DELIVERY_SENDER_CONTACT' | 'BOXBERRY_SENDER_POINT';

export type WebhookState =
  | { state: 'subscribed'; url: string; uuid: string; made: boolean }
  | { state: 'off'; why: 'no_token' | 'test_host' | 'none' }
  | { state: 'failed'; error: string };

export interface CarrierCheck {
  at: string;
  /** What the check was made for: a changed setting checks again at the next start. */
  settings: string;
  credentials: 'ok' | 'refused' | 'unavailable';
  /** The point parcels are handed over at, as the carrier knows it; null when none is set. */
  sender: { code: string; found: boolean; name?: string; address?: string } | null;
  webhook: WebhookState;
  error: string | null;
}

export interface CarrierSetup {
  carrier: CarrierId;
  host: CarrierHost;
  apiUrl: string | null;
  missing: MissingSetting[];
  check: CarrierCheck | null;
  lastError: { at: string; operation: string; message: string } | null;
}

export const CDEK_WEBHOOK_PATH = '/api/v1/ecommerce-core/delivery/cdek/webhook';
const CHECK_KEY = (id: CarrierId) => `carrier-check:${id}`;
/** A start within this long of a check with the same settings (another process's) does not ask again. */
const RECHECK_MS = 6 * 60 * 60 * 1000;

function hostOf(id: CarrierId): CarrierHost {
  if (id === 'cdek') return carrier() ? carrierHost(id, env().CDEK_API_URL) : 'off';
  return boxberry() ? carrierHost(id, env().BOXBERRY_API_URL) : 'off';
}

function missingFor(id: CarrierId): MissingSetting[] {
  const e = env();
  if (id === 'boxberry') return boxberry() && !e.BOXBERRY_SENDER_POINT ? ['BOXBERRY_SENDER_POINT'] : [];
  if (!carrier()) return [];
  return [
    ...(e.DELIVERY_SENDER_POINT ? [] : (['DELIVERY_SENDER_POINT'] as const)),
    ...(e.CDEK_WEBHOOK_TOKEN ? [] : (['CDEK_WEBHOOK_TOKEN'] as const)),
    ...(e.DELIVERY_SENDER_ADDRESS && e.DELIVERY_SENDER_NAME && e.DELIVERY_SENDER_PHONE ? [] : (['DELIVERY_SENDER_CONTACT'] as const)),
  ];
}

/** The address CDEK's ORDER_STATUS webhook is subscribed to: the shop's public one, with its token. */
export function cdekWebhookUrl(): string | undefined {
  const token = env().CDEK_WEBHOOK_TOKEN;
  return token ? `${new URL(CDEK_WEBHOOK_PATH, env().SITE_URL).href}?token=${encodeURIComponent(token)}` : undefined;
}

const settingsOf = (id: CarrierId) => {
  const e = env();
  return id === 'cdek'
    ? [e.CDEK_API_URL, e.CDEK_CLIENT_ID, e.DELIVERY_SENDER_POINT, cdekWebhookUrl()].join('|')
    : [e.BOXBERRY_API_URL, e.BOXBERRY_SENDER_POINT].join('|');
};

const credentialsOf = (error: unknown): CarrierCheck['credentials'] =>
  error instanceof CarrierRefused && (error.status === 401 || error.codes.includes('unauthorized')) ? 'refused' : 'unavailable';

/**
 * A check's first step, the same for every carrier: its sender point asked for (a call that also proves the
 * credentials), or, without one, the credentials alone. A carrier that refuses or does not answer ends the
 * check there.
 */
async function firstStep(id: CarrierId, ask: () => Promise<CarrierCheck['sender']>): Promise<CarrierCheck> {
  const check: CarrierCheck = {
    at: new Date().toISOString(),
    settings: settingsOf(id),
    credentials: 'ok',
    sender: null,
    // Boxberry sends no webhooks: its parcels are asked about hourly. CDEK's is looked at next.
    webhook: { state: 'off', why: 'none' },
    error: null,
  };
  try {
    check.sender = await ask();
  } catch (error) {
    if (!(error instanceof CarrierRefused) && !(error instanceof CarrierUnavailable)) throw error;
    return { ...check, credentials: credentialsOf(error), error: words(error) };
  }
  return check;
}

async function checkCdek(): Promise<CarrierCheck> {
  const client = carrier();
  const code = env().DELIVERY_SENDER_POINT;
  const check = await firstStep('cdek', async () => {
    if (!client) return null;
    if (!code) return client.authorize().then(() => null);
    const point = await client.pointByCode(code);
    return point ? { code: point.code, found: true, name: point.name, address: point.address } : { code, found: false };
  });
  if (!client || check.credentials !== 'ok') return check;
  const url = cdekWebhookUrl();
  if (!url) check.webhook = { state: 'off', why: 'no_token' };
  // CDEK's test account is shared by every integrator: its subscriptions are not the shop's to replace.
  else if (hostOf('cdek') === 'test') check.webhook = { state: 'off', why: 'test_host' };
  else {
    try {
      const held = (await client.webhooks()).find((w) => w.type === 'ORDER_STATUS' && w.url === url);
      check.webhook = held
        ? { state: 'subscribed', url, uuid: held.uuid, made: false }
        : { state: 'subscribed', url, uuid: await client.subscribe('ORDER_STATUS', url), made: true };
    } catch (error) {
      if (!(error instanceof CarrierRefused) && !(error instanceof CarrierUnavailable)) throw error;
      check.webhook = { state: 'failed', error: words(error) };
    }
  }
  return check;
}

function checkBoxberry(): Promise<CarrierCheck> {
  const client = boxberry();
  const code = env().BOXBERRY_SENDER_POINT;
  return firstStep('boxberry', async () => {
    if (!client) return null;
    if (!code) return client.cities().then(() => null);
    const point = await client.pointNamed(code);
    return point ? { code, found: true, ...point } : { code, found: false };
  });
}

async function kept<T>(key: string): Promise<T | null> {
  const [row] = await selectRows<{ value: T }>(await getDb(), sql`SELECT value FROM app_meta WHERE key = ${key}`);
  return row?.value ?? null;
}

/** What an owner reads in the log: one line per carrier, a warning when something is missing or wrong. */
function report(id: CarrierId, check: CarrierCheck): void {
  const problems = [
    ...(hostOf(id) === 'test' ? [`test host ${env().CDEK_API_URL}: set CDEK_API_URL=https://api.cdek.ru/v2 for real shipments`] : []),
    ...(check.credentials !== 'ok' ? [`credentials ${check.credentials}${check.error ? ` (${check.error})` : ''}: checkout offers the fixed methods`] : []),
    ...(check.sender && !check.sender.found ? [`sender point ${check.sender.code} is not one the carrier knows: shipments will be refused`] : []),
    ...missingFor(id).map((name) => `${name} is not set (docs/delivery.md "Setting a carrier up")`),
    ...(check.webhook.state === 'failed' ? [`webhook subscription failed (${check.webhook.error}): statuses come by the hourly poll`] : []),
  ];
  const line = { carrier: id, host: hostOf(id), webhook: check.webhook.state, sender: check.sender?.found ?? null };
  if (problems.length > 0) logger.warn({ ...line, problems }, `carrier ${id}: ${problems.join('; ')}`);
  else logger.info(line, `carrier ${id}: ready`);
}

/**
 * Checks every configured carrier and keeps what it found; `force` asks even when a check with the same
 * settings was made in the last 6 hours (the console's button). Answers how many carriers were asked.
 */
export async function checkCarriers(force = false): Promise<number> {
  let asked = 0;
  for (const id of ['cdek', 'boxberry'] as const) {
    if (hostOf(id) === 'off') continue;
    const last = await kept<CarrierCheck>(CHECK_KEY(id));
    if (!force && last && last.settings === settingsOf(id) && Date.now() - Date.parse(last.at) < RECHECK_MS) continue;
    const check = id === 'cdek' ? await checkCdek() : await checkBoxberry();
    await keep(CHECK_KEY(id), check);
    report(id, check);
    asked++;
  }
  return asked;
}

/** Each carrier's setup as the console shows it. */
export async function carrierSetups(): Promise<CarrierSetup[]> {
  const e = env();
  return Promise.all(
    (['cdek', 'boxberry'] as const).map(async (id) => {
      const host = hostOf(id);
      const check = await kept<CarrierCheck>(CHECK_KEY(id));
      return {
        carrier: id,
        host,
        apiUrl: host === 'off' ? null : id === 'cdek' ? e.CDEK_API_URL : e.BOXBERRY_API_URL,
        missing: missingFor(id),
        // A check made under other settings says nothing about these.
        check: check && check.settings === settingsOf(id) ? check : null,
        lastError: await kept<{ at: string; operation: string; message: string }>(ERROR_KEY(id)),
      };
    }),
  );
}
