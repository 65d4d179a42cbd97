// What the deployment section of docs/operations.md gives users — the environment file, the systemd
// unit, the nginx site — read from that page, so the rolling-restart test runs exactly those files; and
// Debian's nginx, found or installed with apt-get when the tests run as root.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const DOC = 'docs/operations.md';

/** The fenced block of docs/operations.md whose first line is `# <path>`, without that line. */
export function documentedFile(path: string): string {
  const text = readFileSync(DOC, 'utf8');
  for (const match of text.matchAll(/```\w*\n([\s\S]*?)```/g)) {
    const [first, ...rest] = (match[1] ?? '').split('\n');
    if (first?.trim() === `# ${path}`) return rest.join('\n');
  }
  throw new Error(`${DOC} gives no ${path}`);
}

/** KEY=value lines (comments and blank lines skipped). */
export function parseEnvFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return Object.fromEntries(entries);
}

export interface Unit {
  workingDirectory: string;
  environmentFile: string;
  environment: Record<string, string>;
  execStart: string[];
  killMode: string;
  killSignal: NodeJS.Signals;
  timeoutStopSeconds: number;
}

/** The [Service] section of a systemd unit, as far as starting and stopping its process goes. */
export function parseUnit(text: string): Unit {
  const service = text.slice(text.indexOf('[Service]'));
  const values = new Map<string, string[]>();
  for (const line of service.split('\n').slice(1)) {
    if (line.startsWith('[')) break;
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const key = line.slice(0, line.indexOf('='));
    values.set(key, [...(values.get(key) ?? []), line.slice(line.indexOf('=') + 1)]);
  }
  const one = (key: string, fallback?: string) => {
    const value = values.get(key)?.[0] ?? fallback;
    if (value === undefined) throw new Error(`the unit has no ${key}=`);
    return value;
  };
  return {
    workingDirectory: one('WorkingDirectory'),
    environmentFile: one('EnvironmentFile'),
    environment: Object.fromEntries((values.get('Environment') ?? []).map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])),
    execStart: one('ExecStart').split(/\s+/),
    killMode: one('KillMode', 'control-group'),
    killSignal: one('KillSignal', 'SIGTERM') as NodeJS.Signals,
    timeoutStopSeconds: Number(one('TimeoutStopSec', '90')),
  };
}

/** Debian's nginx, or why there is none (the caller skips and says so). */
export function nginxBinary(): { path: string } | { missing: string } {
  const path = '/usr/sbin/nginx';
  if (existsSync(path)) return { path };
  if (process.getuid?.() !== 0) return { missing: 'nginx is not installed and the tests do not run as root: install it with `sudo apt-get install nginx`' };
  try {
    console.log('[rolling restart] nginx not found: installing Debian package "nginx" with apt-get…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } catch (error) {
    return { missing: `apt-get could not install nginx (${error instanceof Error ? error.message.split('\n')[0] : 'error'})` };
  }
  return existsSync(path) ? { path } : { missing: 'apt-get ran but /usr/sbin/nginx is not there' };
}

/** Debian's Varnish with varnish-modules (xkey), or why there is none (the caller skips and says so). */
export function varnishBinary(): { path: string } | { missing: string } {
  const path = '/usr/sbin/varnishd';
  const xkey = ['/usr/lib/x86_64-linux-gnu/varnish/vmods/libvmod_xkey.so', '/usr/lib/aarch64-linux-gnu/varnish/vmods/libvmod_xkey.so'];
  const present = () => existsSync(path) && xkey.some((p) => existsSync(p));
  if (present()) return { path };
  if (process.getuid?.() !== 0)
    return { missing: 'Varnish with varnish-modules is not installed and the tests do not run as root: `sudo apt-get install varnish varnish-modules`' };
  try {
    console.log('[varnish] not found: installing Debian packages "varnish" and "varnish-modules" with apt-get…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'varnish', 'varnish-modules'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch (error) {
    return { missing: `apt-get could not install Varnish (${error instanceof Error ? error.message.split('\n')[0] : 'error'})` };
  }
  return present() ? { path } : { missing: 'apt-get ran but varnishd or its xkey module is not there' };
}
