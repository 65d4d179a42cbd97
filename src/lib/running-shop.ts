// Which shop process owns the embedded database in DATA_DIR (it writes DATA_DIR/shop.json while it runs),
// for the commands that would open it (npm run import, npm run operator): they hand their work to that
// shop through its operator calls instead. Relative imports: the commands load this with Node's type
// stripping.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { env } from './env.ts';
import { knownOperatorToken } from './operator-token.ts';

export interface RunningShop {
  /** The shop's process (the one that has the database open). */
  pid: number;
  url: string;
  /** The operator key the command presents; undefined when neither OPERATOR_TOKEN nor the shop's file is there. */
  token: string | undefined;
}

/** The running shop that owns the embedded database, or undefined (none runs, or the shop uses DATABASE_URL). */
export function runningShop(): RunningShop | undefined {
  const config = env();
  if (config.DATABASE_URL) return undefined;
  let owner: { pid: number; url: string };
  try {
    owner = JSON.parse(readFileSync(join(config.DATA_DIR, 'shop.json'), 'utf8')) as { pid: number; url: string };
    process.kill(owner.pid, 0);
  } catch {
    return undefined;
  }
  return { pid: owner.pid, url: owner.url, token: knownOperatorToken() };
}
