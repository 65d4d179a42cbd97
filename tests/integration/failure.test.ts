// When something fails on our side anyway (here: the database is unreachable), a visitor sees the
// shop's Russian error page with the request's id, an API client the envelope, health says 503, and the
// log holds one line per failure with that id and without what the visitor sent.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/server.ts';

let child: ChildProcess;
let base = '';
const output: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['scripts/server.mjs'], {
    env: { ...process.env, DATABASE_URL: 'postgres://shop@127.0.0.1:1/nowhere', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', SITE_URL: base },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  for (let k = 0; k < 100 && !output.join('').includes('Server listening'); k++) await new Promise((r) => setTimeout(r, 100));
});

afterAll(() => {
  child?.kill('SIGKILL');
});

const logLines = () =>
  output
    .join('')
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a failure on our side', () => {
  it('a page answers 500 with the shop’s Russian error page and the request id', async () => {
    const res = await fetch(`${base}/product/search/${encodeURIComponent('Анна +79991234567')}`, { headers: { 'x-request-id': 'fail-page-0001' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('fail-page-0001');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await res.text();
    expect(html).toContain('Что-то пошло не так');
    expect(html).toContain('Номер запроса: fail-page-0001');
  });

  it('an API call answers the 500 envelope', async () => {
    const res = await fetch(`${base}/api/v1/ecommerce-core/products?search=${encodeURIComponent('Анна')}`, { headers: { 'x-request-id': 'fail-api-0001' } });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ success: false, message: 'Внутренняя ошибка сервера. Мы уже разбираемся' });
  });

  it('health says the database is unavailable', async () => {
    expect((await fetch(`${base}/api/health`)).status).toBe(503);
  });

  it('logs each failure once, with its id, and nothing the visitor typed', async () => {
    const lines = logLines();
    const errors = lines.filter((l) => l['msg'] === 'unexpected error');
    expect(errors.filter((l) => l['requestId'] === 'fail-page-0001')).toHaveLength(1);
    expect(errors.filter((l) => l['requestId'] === 'fail-api-0001')).toHaveLength(1);
    const requests = lines.filter((l) => l['msg'] === 'request');
    expect(requests.find((l) => l['requestId'] === 'fail-page-0001')).toMatchObject({ method: 'GET', path: '/product/search/:text', status: 500 });
    expect(requests.find((l) => l['requestId'] === 'fail-api-0001')).toMatchObject({ path: '/api/v1/ecommerce-core/products', status: 500 });
    const everything = output.join('');
    for (const secret of ['Анна', '79991234567', '%D0%90%D0%BD%D0%BD%D0%B0']) expect(everything).not.toContain(secret);
  });
});
