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
import { logger } from '~/lib/log.ts';
import { CarrierRefused, CarrierUnavailable, type Carrier, type MissingSetting, type WebhookState } from './carrier.server.ts';
import { allCarriers } from './carriers.server.ts';
import type { CarrierId } from './delivery.ts';
import { ERROR_KEY, keep, words } from './delivery.errors.server.ts';

export type CarrierHost = 'off' | 'test' | 'live' | 'other';

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

const CHECK_KEY = (id: CarrierId) => `carrier-check:${id}`;
/** A start within this long of a check with the same settings (another process's) does not ask again. */
const RECHECK_MS = 6 * 60 * 60 * 1000;

const hostOf = (carrier: Carrier): CarrierHost => (carrier.configured() ? carrier.host() : 'off');

const credentialsOf = (error: unknown): CarrierCheck['credentials'] =>
  error instanceof CarrierRefused && (error.status === 401 || error.codes.includes('unauthorized')) ? 'refused' : 'unavailable';

/**
 * A carrier's check: its sender point asked for (a call that also proves the credentials), or, without one,
 * the credentials alone; then its status pushes subscribed, where it has them (else it is polled). A
 * carrier that refuses or does not answer ends the check there.
 */
async function checkOne(carrier: Carrier): Promise<CarrierCheck> {
  const check: CarrierCheck = {
    at: new Date().toISOString(),
    settings: carrier.settings(),
    credentials: 'ok',
    sender: null,
    webhook: { state: 'off', why: 'none' },
    error: null,
  };
  const code = carrier.senderPoint();
  try {
    if (!code) await carrier.authorize();
    else {
      const point = await carrier.pointNamed(code);
      check.sender = point ? { code, found: true, ...point } : { code, found: false };
    }
  } catch (error) {
    if (!(error instanceof CarrierRefused) && !(error instanceof CarrierUnavailable)) throw error;
    return { ...check, credentials: credentialsOf(error), error: words(error) };
  }
  if (carrier.subscribe) {
    try {
      check.webhook = await carrier.subscribe();
    } catch (error) {
      if (!(error instanceof CarrierRefused) && !(error instanceof CarrierUnavailable)) throw error;
      check.webhook = { state: 'failed', error: words(error) };
    }
  }
  return check;
}

async function kept<T>(key: string): Promise<T | null> {
  const [row] = await selectRows<{ value: T }>(await getDb(), sql`SELECT value FROM app_meta WHERE key = ${key}`);
  return row?.value ?? null;
}

/** What an owner reads in the log: one line per carrier, a warning when something is missing or wrong. */
function report(carrier: Carrier, check: CarrierCheck): void {
  const id = carrier.id;
  const problems = [
    ...(hostOf(carrier) === 'test' ? [`test host ${carrier.apiUrl()}: set ${carrier.liveSetting} for real shipments`] : []),
    ...(check.credentials !== 'ok' ? [`credentials ${check.credentials}${check.error ? ` (${check.error})` : ''}: checkout offers the fixed methods`] : []),
    ...(check.sender && !check.sender.found ? [`sender point ${check.sender.code} is not one the carrier knows: shipments will be refused`] : []),
    ...carrier.missing().map((name) => `${name} is not set (docs/delivery.md "Setting a carrier up")`),
    ...(check.webhook.state === 'failed' ? [`webhook subscription failed (${check.webhook.error}): statuses come by the hourly poll`] : []),
  ];
  const line = { carrier: id, host: hostOf(carrier), webhook: check.webhook.state, sender: check.sender?.found ?? null };
  if (problems.length > 0) logger.warn({ ...line, problems }, `carrier ${id}: ${problems.join('; ')}`);
  else logger.info(line, `carrier ${id}: ready`);
}

/**
 * Checks every configured carrier and keeps what it found; `force` asks even when a check with the same
 * settings was made in the last 6 hours (the console's button). Answers how many carriers were asked.
 */
export async function checkCarriers(force = false): Promise<number> {
  let asked = 0;
  for (const carrier of allCarriers()) {
    if (hostOf(carrier) === 'off') continue;
    const last = await kept<CarrierCheck>(CHECK_KEY(carrier.id));
    if (!force && last && last.settings === carrier.settings() && Date.now() - Date.parse(last.at) < RECHECK_MS) continue;
    const check = await checkOne(carrier);
    await keep(CHECK_KEY(carrier.id), check);
    report(carrier, check);
    asked++;
  }
  return asked;
}

/** Each carrier's setup as the console shows it. */
export async function carrierSetups(): Promise<CarrierSetup[]> {
  return Promise.all(
    allCarriers().map(async (carrier) => {
      const host = hostOf(carrier);
      const check = await kept<CarrierCheck>(CHECK_KEY(carrier.id));
      return {
        carrier: carrier.id,
        host,
        apiUrl: host === 'off' ? null : carrier.apiUrl(),
        missing: carrier.missing(),
        // A check made under other settings says nothing about these.
        check: check && check.settings === carrier.settings() ? check : null,
        lastError: await kept<{ at: string; operation: string; message: string }>(ERROR_KEY(carrier.id)),
      };
    }),
  );
}
