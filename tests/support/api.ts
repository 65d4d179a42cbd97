// Small helpers for calling the API over real HTTP in integration tests.
import { expect } from 'vitest';
import { shared } from './shared-shop.ts';
import { loadContract, type Contract } from './contract.ts';

export interface Envelope<T = unknown> {
  success: boolean;
  data?: T;
  message?: string;
  errors?: Record<string, string[]>;
  meta_data?: { title: string; description: string };
  breadcrumbs?: { name: string; url?: string }[];
}

/**
 * This test file's own visitor address, told to the shared shop as nginx would (global-setup.ts trusts
 * loopback as its proxy): the per-address limits (registration, login) count each file apart, so whether one
 * is reached does not depend on which files ran before on the same shop.
 */
const ADDRESS = `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;

export function baseUrl(): string {
  return shared().baseUrl;
}

export async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<{ status: number; body: Envelope<T>; headers: Headers }> {
  const res = await fetch(new URL(path, baseUrl()), { ...init, headers: { 'accept-language': 'ru', 'x-forwarded-for': ADDRESS, ...init.headers } }).catch(
    (error: unknown) => {
      // Which call the connection failed under, not only undici's "fetch failed".
      throw new Error(`${init.method ?? 'GET'} ${path} at ${baseUrl()}: ${String((error as { cause?: unknown }).cause ?? error)}`, { cause: error });
    },
  );
  const text = await res.text();
  let body: Envelope<T>;
  try {
    body = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  await expectConforms(baseUrl(), init.method ?? 'GET', path, res.status, body);
  return { status: res.status, body, headers: res.headers };
}

const contracts = new Map<string, Promise<Contract>>();

/**
 * Every answer of the API must be what the document the server publishes says it is — on the shared test
 * server and on the servers that some files start for themselves. Pages (not under /api/) pass.
 */
export async function expectConforms(base: string, method: string, path: string, status: number, body: unknown): Promise<void> {
  if (!new URL(path, base).pathname.startsWith('/api/')) return;
  let contract = contracts.get(base);
  if (!contract) contracts.set(base, (contract = loadContract(base)));
  expect((await contract).check(method, path, status, body), `${method} ${path}: the answer does not match /api/openapi.json`).toEqual([]);
}
