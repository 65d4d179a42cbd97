// `npm run order -- <code> [--status <status>] [--tracking <id>] [--event <text> [--place <city>]] [--note <text>]`
// The operator's command for one order, sent to the running shop (its operator calls, docs/operations.md
// "Orders"): without options it shows the order; --status moves it forward (processing → purchased →
// ready_to_ship → shipped → delivered, or cancelled before shipping, refunding a paid order); --tracking
// sets the parcel number; --event records where the parcel is. The shop e-mails the customer each status.
// The key is OPERATOR_TOKEN, or DATA_DIR/operator-token written by the shop; the address --url, or
// http://HOST:PORT from the same environment.
import { env, loadDotEnv } from '../src/lib/env.ts';
import { knownOperatorToken, operatorTokenFile } from '../src/lib/operator-token.ts';
import { commandLine, httpAddress } from './cli.ts';

const cli = commandLine(
  'npm run order -- BS-12345678 [--status shipped] [--tracking RA123456789RU] [--event "Прибыло в Москву" [--place Москва]] [--note TEXT] [--url URL]',
  {
    allowPositionals: true,
    options: {
      status: { type: 'string' },
      tracking: { type: 'string' },
      event: { type: 'string' },
      place: { type: 'string', default: '' },
      note: { type: 'string' },
      url: { type: 'string' },
    },
  },
);
const values = cli.values;
const code = cli.positionals[0] ?? cli.fail("the order's code is missing");
if (!/^BS-\d{8}$/.test(code)) cli.fail(`not an order code: '${code}'`);
if (cli.positionals.length > 1) cli.fail(`unexpected argument '${cli.positionals[1] ?? ''}'`);
if (values.url !== undefined) httpAddress(cli, values.url);
loadDotEnv();
const config = env();
const base = values.url ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
const token = knownOperatorToken();
if (!token) {
  console.error(`No OPERATOR_TOKEN and no ${operatorTokenFile()}: start the shop once, or set OPERATOR_TOKEN for both.`);
  process.exit(2);
}
const change = {
  ...(values.status ? { status: values.status } : {}),
  ...(values.tracking ? { tracking_id: values.tracking } : {}),
  ...(values.event ? { event: { status: values.event, place: values.place } } : {}),
  ...(values.note ? { note: values.note } : {}),
};
const changing = Object.keys(change).length > 0;
let res: Response;
try {
  res = await fetch(`${base}/api/v1/ecommerce-core/ops/orders/${code}`, {
    method: changing ? 'POST' : 'GET',
    headers: { 'x-operator-token': token, 'accept-language': 'ru', ...(changing ? { 'content-type': 'application/json' } : {}) },
    ...(changing ? { body: JSON.stringify(change) } : {}),
  });
} catch {
  console.error(`The shop does not answer at ${base}: is it running? (--url to name another address)`);
  process.exit(1);
}
const answer = (await res.json()) as {
  success: boolean;
  message?: string;
  errors?: Record<string, string[]>;
  data?: {
    code: string;
    status_label: string;
    payment_status: string;
    total: number;
    tracking_id: string | null;
    history: { label: string; note: string; created_at: string }[];
  };
};
if (!answer.success || !answer.data) {
  console.error(`${res.status}: ${answer.message ?? 'error'}`);
  for (const [field, messages] of Object.entries(answer.errors ?? {})) console.error(`  ${field}: ${messages.join(', ')}`);
  process.exit(1);
}
const o = answer.data;
console.log(
  `${o.code}: ${o.status_label} · payment ${o.payment_status} · ${(o.total / 100).toFixed(2)} RUB${o.tracking_id ? ` · tracking ${o.tracking_id}` : ''}`,
);
for (const h of o.history) console.log(`  ${h.created_at}  ${h.label}${h.note ? ` (${h.note})` : ''}`);
