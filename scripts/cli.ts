// The command line of every `npm run` command that takes arguments: node:util's parseArgs, strict, with a
// refusal a person can read. parseArgs throws a TypeError whose stack trace and ERR_PARSE_ARGS_ code say
// nothing to whoever typed the command; here a wrong argument is one line saying what is wrong, the
// command's usage, and exit code 2 — before the command does anything (builds, servers, browsers).
import { parseArgs, type ParseArgsConfig } from 'node:util';

type CommandConfig = Pick<ParseArgsConfig, 'options' | 'allowPositionals'>;

export interface CommandLine<T extends CommandConfig> {
  values: ReturnType<typeof parseArgs<T>>['values'];
  positionals: string[];
  /** Refuses the arguments: the reason and the usage on stderr, exit code 2. */
  fail(reason: string): never;
}

/** Refuses a command's arguments: `reason`, then `usage: <usage>`, on stderr; exit code 2. */
function usageError(usage: string, reason: string): never {
  console.error(reason);
  console.error(`usage: ${usage}`);
  process.exit(2);
}

const isParseError = (error: unknown): error is Error =>
  error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('ERR_PARSE_ARGS_');

/**
 * The arguments, parsed strictly (an unknown option, a value missing or given to a flag, a positional
 * where none is taken are refused). `usage` is the whole line after "usage: ", e.g.
 * `npm run backup -- [FILE | --out FILE]`.
 */
export function commandLine<T extends CommandConfig>(usage: string, config: T, args: readonly string[] = process.argv.slice(2)): CommandLine<T> {
  const fail = (reason: string): never => usageError(usage, reason);
  try {
    const { values, positionals } = parseArgs({ ...config, args, strict: true });
    return { values: values as CommandLine<T>['values'], positionals, fail };
  } catch (error) {
    if (!isParseError(error)) throw error;
    // Node's first sentence ("Unknown option '--x'", "Unexpected argument 'y'", "Option '--out <value>'
    // argument missing"); its advice on '--' is for node's own command line, which npm takes for itself.
    return fail(error.message.split('. ')[0] ?? error.message);
  }
}

/** A whole number within bounds, or the command's refusal naming the option. */
export function wholeNumber(cli: { fail(reason: string): never }, name: string, text: string, bounds: { min?: number; max?: number } = {}): number {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = bounds;
  const value = Number(text);
  if (text.trim() !== '' && Number.isSafeInteger(value) && value >= min && value <= max) return value;
  const range = bounds.min === undefined ? '' : bounds.max === undefined ? ` of at least ${min}` : ` from ${min} to ${max}`;
  return cli.fail(`${name} must be a whole number${range}, not '${text}'`);
}

/** An http(s) address given on the command line, or the command's refusal. */
export function httpAddress(cli: { fail(reason: string): never }, text: string): string {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return cli.fail(`not an http(s) address: ${text}`);
  return text;
}

/** One of the names an option takes, or the command's refusal listing them. */
export function oneOf<N extends string>(cli: { fail(reason: string): never }, name: string, text: string, names: readonly N[]): N {
  const found = names.find((n) => n === text);
  return found ?? cli.fail(`${name} takes ${names.map((n) => `'${n}'`).join(', ')}; not '${text}'`);
}

/** A shop's address and paths on it (`URL /a /b …`; the local shop's home page when none are given). */
export function pageAddresses(cli: { positionals: string[]; fail(reason: string): never }): { base: string; paths: string[] } {
  const [base = 'http://127.0.0.1:4321', ...paths] = cli.positionals;
  httpAddress(cli, base);
  const wrong = paths.find((path) => !path.startsWith('/'));
  if (wrong !== undefined) cli.fail(`a path on the shop starts with '/': '${wrong}'`);
  return { base, paths };
}
