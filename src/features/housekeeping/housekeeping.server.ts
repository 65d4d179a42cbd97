// The shop's housekeeping (docs/operations.md "Housekeeping jobs"): what must happen whether or not
// anyone visits, run by the one scheduler (src/lib/jobs.ts) in every server process — on PostgreSQL one
// process at a time per job. Loaded with the middleware; the jobs start when the process is ready and
// stop first when it stops (src/lib/runtime.ts).
import { pollShipments, readDoorReceipts, registerPaidOrders } from '~/features/delivery/delivery.shipments.server.ts';
import { reconcileTransfers } from '~/features/delivery/delivery.transfers.server.ts';
import { settleReceipts } from '~/features/payments/payments.receipts.server.ts';
import { finishStaleReturns } from '~/features/payments/payments.returns.server.ts';
import { getDatabase } from '~/lib/db/index.ts';
import { env } from '~/lib/env.ts';
import { deleteLapsedThrottles } from '~/lib/http/rate-limit.server.ts';
import { Scheduler, type Job } from '~/lib/jobs.ts';
import { deleteOldMail, retryOutbox } from '~/lib/mail.server.ts';
import { beforeExit, STOP_ORDER, whenReady } from '~/lib/runtime.ts';
import { deleteSpentCredentials } from '~/features/auth/auth.server.ts';
import { purgeQueued } from '~/features/cdn/cdn.server.ts';
import { releaseExpiredOrders } from '~/features/checkout/checkout.server.ts';
import { forgetExpiredCarrierAnswers } from '~/features/delivery/delivery.server.ts';
import { checkCarriers } from '~/features/delivery/delivery.setup.server.ts';
import { refreshFeedIfDue } from '~/features/discovery/discovery.server.ts';
import { deleteEndedOperatorSessions } from '~/features/ops/ops.server.ts';
import { promotionsTick } from '~/features/promotions/promotions.server.ts';
import { catalogueChanged } from '~/features/catalog/read-model.server.ts';
import { pollPendingPayments, refundDuePayments } from '~/features/payments/payments.server.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** The jobs and how often each runs; JOBS_EVERY_SECONDS runs them all that often instead (tests). */
export function housekeepingJobs(everySeconds = env().JOBS_EVERY_SECONDS): Job[] {
  const every = (ms: number) => (everySeconds ? everySeconds * SECOND : ms);
  return [
    // Unpaid orders past PAYMENT_TIMEOUT_MINUTES give their stock back within a minute.
    { name: 'release-unpaid-orders', everyMs: every(30 * SECOND), run: releaseExpiredOrders },
    { name: 'retry-mail', everyMs: every(MINUTE), run: () => retryOutbox() },
    { name: 'poll-pending-payments', everyMs: every(MINUTE), run: () => pollPendingPayments() },
    { name: 'refund-due-payments', everyMs: every(5 * MINUTE), run: () => refundDuePayments() },
    { name: 'refresh-product-feed', everyMs: every(5 * MINUTE), run: async () => Number(await refreshFeedIfDue()) },
    // Delivery by carriers (issue 38): paid orders registered without a manager when DELIVERY_AUTO_REGISTER=1,
    // and the orders on their way asked about once an hour each (the carrier's webhook has no retries).
    { name: 'register-shipments', everyMs: every(MINUTE), run: () => registerPaidOrders() },
    { name: 'poll-shipments', everyMs: every(10 * MINUTE), run: () => pollShipments() },
    { name: 'door-receipts', everyMs: every(10 * MINUTE), run: () => readDoorReceipts() },
    { name: 'reconcile-cod', everyMs: every(60 * MINUTE), run: () => reconcileTransfers() },
    // The carriers' setup checked at start and every 6 hours (not at the tests' pace: it asks the carrier);
    // a check with the same settings in the last 6 hours by any process is not made again (issue 54).
    { name: 'check-carriers', everyMs: 6 * 60 * MINUTE, run: () => checkCarriers() },
    // Marked goods (issue 39): settlement receipts a handover did not get out, and returns a crash left half done.
    { name: 'settle-receipts', everyMs: every(MINUTE), run: async () => (await settleReceipts()) + (await finishStaleReturns()) },
    // A CDN in front (issue 41): the tags a change touched, purged within seconds of it.
    // Sales that start or end at their time (issue 56): the prices shown move within seconds of it.
    {
      name: 'promotion-clock',
      everyMs: everySeconds ? Math.min(every(SECOND), SECOND) : 5 * SECOND,
      quietWhenIdle: true,
      run: async () => {
        const passed = await promotionsTick();
        if (passed > 0) await catalogueChanged();
        return passed;
      },
    },
    { name: 'purge-cdn', everyMs: everySeconds ? Math.min(every(SECOND), SECOND) : SECOND, quietWhenIdle: true, run: () => purgeQueued() },
    {
      name: 'delete-spent-rows',
      everyMs: every(60 * MINUTE),
      run: async () =>
        (await deleteSpentCredentials()) +
        (await deleteEndedOperatorSessions()) +
        (await deleteLapsedThrottles()) +
        (await forgetExpiredCarrierAnswers()) +
        // The mail's copies hold personal data: kept 90 days (docs/operations.md "Personal data").
        (await deleteOldMail()),
    },
  ];
}

const scheduler = new Scheduler(housekeepingJobs(), getDatabase);
whenReady('housekeeping', () => scheduler.start());
beforeExit('housekeeping', STOP_ORDER.jobs, () => scheduler.stop());
