import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { IMPORT_NODE_FLAGS, SERVER_ENV } from './server-flags.mjs';

it('npm run import starts Node with the server’s memory settings, so the command need not start itself again', () => {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['import'] ?? '';
  for (const flag of IMPORT_NODE_FLAGS) expect(script).toContain(` ${flag} `);
  for (const [name, value] of Object.entries(SERVER_ENV)) expect(script).toContain(`${name}=${value} `);
  expect(script).toMatch(/ scripts\/import\.ts$/);
});
