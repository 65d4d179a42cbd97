// What the HTTP benchmarks share (bench.mjs, bench-against.mjs): a free loopback port, and waiting for a
// shop to answer.
import { createServer } from 'node:net';

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The first OK answer of `url`, asked every 250 ms until `timeoutMs`. */
export async function waitFor(url, timeoutMs = 300_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const res = await fetch(url);
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}
