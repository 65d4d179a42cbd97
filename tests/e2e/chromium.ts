// Finds Debian's Chromium for Playwright; never downloads a browser (DEVELOPERS: no browser download).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium', '/usr/bin/google-chrome'];

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this network refuses.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function findChromium(): string | undefined {
  const fromEnv = process.env['CHROMIUM_PATH'];
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((p) => existsSync(p));
}

/** Debian's headless shell: Chromium's renderer without the browser's window machinery. */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function aptInstall(pkg: string): void {
  console.log(`[e2e] installing Debian package "${pkg}" with apt-get…`);
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/**
 * The browser of the end-to-end suite: Debian's `chromium-headless-shell` where it is (or can be installed),
 * otherwise Chromium. The shell is the same Blink and V8 without the full browser's headless window and
 * compositor — what Playwright itself runs headless — and took 45 % less CPU and 38 % less time on two specs (checkout and catalogue) (docs/performance.md,
 * "The suite in 8 minutes"). Measurements that a shopper's browser must match (Lighthouse, the taps, first
 * paint) keep the full Chromium (chromiumPath).
 */
export function testChromiumPath(): string {
  // Found once per run: Playwright's workers load the config again and inherit the environment.
  process.env['E2E_CHROMIUM'] ??= findTestChromium();
  return process.env['E2E_CHROMIUM'];
}

function findTestChromium(): string {
  if (process.env['CHROMIUM_PATH']) return chromiumPath();
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  if (isRoot()) {
    try {
      aptInstall('chromium-headless-shell');
    } catch {
      // An older Debian without the package: the full browser runs the same tests.
    }
    if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  }
  return chromiumPath();
}

/** Returns Chromium's path, installing Debian's package with apt-get when running as root. */
export function chromiumPath(): string {
  const found = findChromium();
  if (found) return found;
  if (isRoot()) {
    console.log('[e2e] Chromium not found');
    aptInstall('chromium');
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    'Chromium is needed for the end-to-end tests and was not found.\n' +
      '  Install it with:  sudo apt-get install chromium-headless-shell chromium   (Debian/Ubuntu)\n' +
      '  or point CHROMIUM_PATH at an existing Chromium/Chrome binary.',
  );
}
