// Every `npm run` command that takes arguments answers a wrong one with the reason, its usage line and
// exit code 2 (scripts/cli.ts) — never a stack trace, and before it does any work: none of these runs
// long enough to build, start a shop or open a browser.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

/** What each command is refused for, besides an unknown option: a wrong argument of its own. */
const COMMANDS: Record<string, string[][]> = {
  start: [],
  backup: [['one.tar.gz', 'two.tar.gz'], ['one.tar.gz', '--out', 'two.tar.gz'], ['--out']],
  'media:migrate': [['--to', 'ftp'], ['--to'], ['extra']],
  restore: [[], ['one.tar.gz', 'two.tar.gz']],
  import: [[], ['feed.yml', '--default-stock', 'many']],
  operator: [[], ['promote', 'anna@shop.ru'], ['add', 'anna@shop.ru'], ['add', 'anna@shop.ru', '--role', 'boss']],
  order: [[], ['12345678'], ['BS-12345678', '--url', 'shop']],
  seed: [['--products', 'many'], ['--products', '0'], ['extra']],
  images: [['extra']],
  screenshots: [['shop'], ['http://127.0.0.1:4321', 'i/12']],
  'js-budget': [['shop']],
  lighthouse: [
    ['--page', 'nowhere'],
    ['--profile', 'robot'],
    ['--runs', '0'],
  ],
  'lighthouse:ops': [['http://127.0.0.1:4321']],
  interactions: [
    ['--page', 'nowhere'],
    ['--runs', 'x'],
  ],
  taps: [['--control', 'nowhere'], ['--runs', '0'], ['ftp://example.ru']],
  test: [['--only=everything']],
  'test:unit': [],
  'test:integration': [],
  'test:e2e': [],
  'test:changed': [['--since']],
  'search:eval': [['extra'], ['--worst', 'many']],
  bench: [
    ['--products', 'x'],
    ['--import', '--offers', 'x'],
    ['--photo-pages', '--no-such-flag'],
    ['--ops-orders', '--products', '5'],
    ['--delivery', '--requests', 'many'],
  ],
  'first-round-trip': [['shop']],
  check: [['extra']],
  fonts: [['http://127.0.0.1:4321', 'http://127.0.0.1:4322']],
};
/** Commands that run a script of ours but take no arguments. */
const NO_ARGUMENTS = ['build', 'serve'];

// A data folder of its own: whatever a command would touch if it ever did not refuse.
const dataDir = mkdtempSync(join(tmpdir(), 'cli-usage-'));
/** `npm run`, its exit code and both outputs; several at once (each is mostly npm's and Node's start-up). */
const run = (command: string, args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string; error?: Error }>((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', command, '--', ...args],
      { encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', FORCE_COLOR: '0' }, timeout: 60_000 },
      (error, stdout, stderr) => {
        // A non-zero exit is an answer here, not a failure to run: only a spawn error or the timeout is one.
        const failed = error && (error.killed || typeof error.code !== 'number') ? { error } : {};
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr, ...failed });
      },
    );
  });

describe('npm run … with a wrong argument', () => {
  it('covers every command of package.json that runs a script of ours', () => {
    const ours = Object.entries(scripts)
      .filter(([, line]) => /\bscripts\/[\w-]+\.(?:ts|mjs)\b/.test(line))
      .map(([name]) => name);
    expect([...Object.keys(COMMANDS), ...NO_ARGUMENTS].sort()).toEqual(ours.sort());
  });

  const cases = Object.entries(COMMANDS).flatMap(([command, wrong]) => [['--no-such-flag'], ...wrong].map((args) => [command, args] as const));
  // Side by side: every script answers a wrong argument before loading anything heavy (0.1 s of its own), so
  // most of each case is npm's start, and one after another they took 13 s.
  it.concurrent.each(cases)('npm run %s -- %j: the reason, the usage, exit code 2', { timeout: 90_000 }, async (command, args) => {
    const answer = await run(command, [...args]);
    expect(answer.error).toBeUndefined();
    const stderr = answer.stderr.trimEnd();
    expect(answer.status, stderr).toBe(2);
    const lines = stderr.split('\n');
    expect(lines, stderr).toHaveLength(2);
    const name =
      command === 'start'
        ? 'start'
        : command.startsWith('test') && command !== 'test:changed'
          ? 'test'
          : `run ${command.startsWith('bench') ? 'bench' : command}`;
    expect(lines[1]).toMatch(new RegExp(`^usage: npm ${name}\\b`));
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain('ERR_');
    expect(answer.stdout).toBe('');
  });
});
