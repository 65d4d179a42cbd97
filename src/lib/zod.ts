// zod, as every schema of the shop imports it. In the browser it runs without its compiled fast path:
// that path first probes `new Function`, which the pages' Content-Security-Policy refuses (no
// 'unsafe-eval'), and Chrome reports the refusal as a page issue (Lighthouse's best practices 96 on the
// checkout). The probe happens when an object schema is built, so this must run before any schema
// module's body: schema modules import z from here, never from 'zod' (a lint rule keeps it so).
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
