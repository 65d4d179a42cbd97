// Small helpers for calling the API over real HTTP in integration tests.
import { inject } from 'vitest';

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
  return { status: res.status, body, headers: res.headers };
}
