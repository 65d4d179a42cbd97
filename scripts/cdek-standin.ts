// The CDEK stand-in (tests/support/cdek-standin.ts) as a process of its own, to look at checkout's delivery
// by hand or take its screenshots: prints the URL to give the shop as CDEK_API_URL, with the account
// CDEK_CLIENT_ID=standin-client / CDEK_CLIENT_SECRET=standin-secret. Stops on Ctrl-C.
// Usage: node scripts/cdek-standin.ts
import { startCdekStandin } from '../tests/support/cdek-standin.ts';

const standin = await startCdekStandin('standin-client', 'standin-secret');
console.log(standin.url);
process.on('SIGINT', () => void standin.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void standin.close().then(() => process.exit(0)));
