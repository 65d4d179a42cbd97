// Playwright's webServer: the production build on E2E_PORT with a fresh database, removed on exit.
import { writeFileSync } from 'node:fs';
import { e2eInfoFile, startTestServer } from './server.ts';

// playwright.config.ts picks the port.
const port = Number(process.env['E2E_PORT']);
// A counter id, so the analytics tag is rendered and can be tested.
const server = await startTestServer({ port, label: 'e2e', wholeRun: true, seedProducts: 400, env: { METRIKA_ID: '12345678' } });
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
