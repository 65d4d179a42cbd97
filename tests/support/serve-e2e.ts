// Playwright's webServer: the production build on E2E_PORT with a fresh database, removed on exit.
import { writeFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { e2eInfoFile, startTestServer } from './server.ts';

/** A promo code the checkout's e2e test applies (issue 56): 10 % off the order, no limit, so both projects use it. */
const E2E_PROMO = { code: 'E2E10', name: 'Минус 10 % по коду' };

// playwright.config.ts picks the port.
const port = Number(process.env['E2E_PORT']);
// A counter id, so the analytics tag is rendered and can be tested.
const server = await startTestServer({
  port,
  label: 'e2e',
  wholeRun: true,
  seedProducts: 400,
  env: { METRIKA_ID: '12345678' },
  prepare: async ({ db }) => {
    await db.execute(
      sql`WITH p AS (INSERT INTO promotions (name, rule, target, needs_code)
                     VALUES (${E2E_PROMO.name}, '{"kind":"order_percent","percent":10,"threshold":0}'::jsonb,
                             '{"all":true,"productIds":[],"categoryIds":[],"brandIds":[]}'::jsonb, true) RETURNING id)
          INSERT INTO promotion_codes (promotion_id, code) SELECT id, ${E2E_PROMO.code} FROM p`,
    );
  },
});
console.log(`[e2e] shop ready on ${server.baseUrl}, data in ${server.database.dataDir}`);
writeFileSync(e2eInfoFile(port), JSON.stringify({ dataDir: server.database.dataDir }));
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('SIGHUP', stop);
