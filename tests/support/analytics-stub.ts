// The analytics provider's host for the e2e browser: an HTTPS server on loopback that answers every path
// with a script that only leaves a mark of what was asked, which Chromium reaches for mc.yandex.ru through its host-resolver rules
// (playwright.config.ts). It replaces a Playwright route on every context: a route makes Playwright
// intercept every request of the page, each one a round trip through the test runner, and that cost a
// fifth of the e2e stage's time (docs/performance.md, "The suite in 8 minutes, again"). The certificate is
// made here, self-signed, for this run only; the test browser is told to accept it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ANALYTICS_HOST } from './analytics-host.ts';

const port = Number(process.env['ANALYTICS_STUB_PORT']);
const dir = mkdtempSync(join(tmpdir(), 'analytics-stub-'));
const key = join(dir, 'key.pem');
const cert = join(dir, 'cert.pem');
// Debian's openssl: Node can sign with a key but not write a certificate.
execFileSync('openssl', [
  'req',
  '-x509',
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:prime256v1',
  '-nodes',
  '-days',
  '2',
  '-subj',
  `/CN=${ANALYTICS_HOST}`,
  '-keyout',
  key,
  '-out',
  cert,
]);
const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
  // What was asked for, as a mark the page's tests can read (home-extras.spec.ts); nothing else.
  res.writeHead(200, { 'content-type': 'text/javascript' });
  res.end(`window.analyticsStub=${JSON.stringify(req.url)};`);
});
rmSync(dir, { recursive: true, force: true });
server.listen(port, '127.0.0.1', () => console.log(`[e2e] analytics stub on https://127.0.0.1:${port}`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
