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

/** Returns Chromium's path, installing Debian's package with apt-get when running as root. */
export function chromiumPath(): string {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) {
    console.log('[e2e] Chromium not found: installing Debian package "chromium" with apt-get…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new Error(
    'Chromium is needed for the end-to-end tests and was not found.\n' +
      '  Install it with:  sudo apt-get install chromium   (Debian/Ubuntu)\n' +
      '  or point CHROMIUM_PATH at an existing Chromium/Chrome binary.',
  );
}
