// Small helpers for calling the API over real HTTP in integration tests.
import { expect, inject } from 'vitest';
import { loadContract, type Contract } from './contract.ts';

export interface Envelope<T = unknown> {
  success: boolean;
  data?: T;
  message?: string;
  errors?: Record<string, string[]>;
  meta_data?: { title: string; description: string };
  breadcrumbs?: { name: string; url?: string }[];
}

export function baseUrl(): string {
  return inject('baseUrl');
}

export async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<{ status: number; body: Envelope<T>; headers: Headers }> {
  const res = await fetch(new URL(path, baseUrl()), { ...init, headers: { 'accept-language': 'ru', ...init.headers } });
  const text = await res.text();
  let body: Envelope<T>;
  try {
    body = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  // Every answer must be what the published contract says it is.
  contract ??= loadContract(baseUrl());
  const problems = (await contract).check(init.method ?? 'GET', path, res.status, body);
  expect(problems, `the answer does not match /api/openapi.json`).toEqual([]);
  return { status: res.status, body, headers: res.headers };
}

let contract: Promise<Contract> | undefined;
