// `npm run operator -- add EMAIL --role manager|admin | list | disable EMAIL | reset-2fa EMAIL [--json] [--url URL]`
// The managers' console's accounts (docs/operations.md "Operators"), sent to the running shop through its
// operator calls, like `npm run order`. `add` and `reset-2fa` print, once, the one-time link where the
// operator sets a password and confirms the authenticator, the otpauth:// URI of the TOTP secret (for
// scripts that enrol an operator), and the same URI as a QR code in the terminal. --json prints the answer
// as one JSON object instead.
import { renderUnicodeCompact } from 'uqr';
import { env, loadDotEnv } from '../src/lib/env.ts';
import { knownOperatorToken, operatorTokenFile } from '../src/lib/operator-token.ts';
import { runningShop } from '../src/lib/running-shop.ts';
import { commandLine, httpAddress, oneOf } from './cli.ts';

const cli = commandLine('npm run operator -- add EMAIL --role manager|admin | list | disable EMAIL | reset-2fa EMAIL [--json] [--url URL]', {
  allowPositionals: true,
  options: { role: { type: 'string' }, json: { type: 'boolean', default: false }, url: { type: 'string' } },
});
const values = cli.values;
const command = oneOf(cli, 'the command', cli.positionals[0] ?? cli.fail('the command is missing'), ['add', 'list', 'disable', 'reset-2fa']);
const email = cli.positionals[1];
if (command !== 'list' && !email) cli.fail(`${command} needs the operator's e-mail`);
if (cli.positionals.length > (command === 'list' ? 1 : 2)) cli.fail(`unexpected argument '${cli.positionals.at(-1) ?? ''}'`);
if (command === 'add') oneOf(cli, '--role', values.role ?? cli.fail('add needs --role manager or --role admin'), ['manager', 'admin']);
else if (values.role !== undefined) cli.fail('--role is for add only');
if (values.url !== undefined) httpAddress(cli, values.url);

loadDotEnv();
const config = env();
const base = values.url ?? runningShop()?.url ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
const token = knownOperatorToken();
if (!token) {
  console.error(`No OPERATOR_TOKEN and no ${operatorTokenFile()}: start the shop once, or set OPERATOR_TOKEN for both.`);
  process.exit(2);
}

interface OperatorView {
  id: number;
  email: string;
  role: string;
  totp_confirmed: boolean;
  disabled: boolean;
}
interface Answer {
  success: boolean;
  message?: string;
  errors?: Record<string, string[]>;
  data?: OperatorView[] | OperatorView | { operator: OperatorView; setup_url: string; otpauth: string };
}

let res: Response;
try {
  res = await fetch(`${base}/api/v1/ecommerce-core/ops/operators`, {
    method: command === 'list' ? 'GET' : 'POST',
    headers: { 'x-operator-token': token, 'accept-language': 'ru', 'content-type': 'application/json' },
    ...(command === 'list' ? {} : { body: JSON.stringify({ action: command, email, ...(command === 'add' ? { role: values.role } : {}) }) }),
  });
} catch {
  console.error(`The shop does not answer at ${base}: is it running? (--url to name another address)`);
  process.exit(1);
}
const answer = (await res.json()) as Answer;
if (!answer.success || !answer.data) {
  const fields = Object.entries(answer.errors ?? {}).map(([field, messages]) => `${field}: ${messages.join(', ')}`);
  console.error([answer.message ?? `HTTP ${res.status}`, ...fields].join('\n'));
  process.exit(1);
}
if (values.json) {
  console.log(JSON.stringify(answer.data));
  process.exit(0);
}
const line = (o: OperatorView) =>
  `${String(o.id).padStart(4)}  ${o.email.padEnd(32)} ${o.role.padEnd(8)} ${o.disabled ? 'disabled' : o.totp_confirmed ? 'active' : 'waiting for set-up'}`;
const data = answer.data;
if (Array.isArray(data)) {
  console.log(data.length === 0 ? 'No operators yet: npm run operator -- add <email> --role admin' : data.map(line).join('\n'));
} else if ('setup_url' in data) {
  console.log(line(data.operator));
  console.log(`\nThe one-time link to set the password and confirm the authenticator (valid 24 hours), shown once:\n  ${data.setup_url}`);
  console.log(`\nThe authenticator's secret as an otpauth URI (the set-up page shows it as a QR code too):\n  ${data.otpauth}\n`);
  console.log(renderUnicodeCompact(data.otpauth));
} else {
  console.log(line(data));
}
