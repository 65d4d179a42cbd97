// Requests fetch would not send or would rewrite: a body on any method, chunks, a chosen local address,
// no automatic decompression. Each on a connection of its own (after a refused body the server closes it).
import { request as httpRequest, type Agent } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { baseUrl } from './api.ts';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

export interface RawOptions {
  headers?: Record<string, string>;
  body?: Buffer | string | undefined;
  chunks?: Buffer[];
  localAddress?: string;
  /** A keep-alive agent to reuse connections (the fuzz file's thousands of requests); a new connection by default. */
  agent?: Agent;
}

export function rawRequest(method: string, path: string, options: RawOptions = {}, retried = false): Promise<RawAnswer> {
  const url = new URL(baseUrl());
  // Node sends a DELETE's body without a length unless told: the server would read it as a new request.
  const length = options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent: options.agent ?? false,
        headers: { ...length, ...options.headers },
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          const body = Buffer.concat(parts);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      // A kept connection the server closed as it was taken for this request (Node's documented race):
      // sent again once, on a new connection.
      if (req.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(rawRequest(method, path, options, true));
      else reject(error);
    });
    if (options.chunks) for (const chunk of options.chunks) req.write(chunk);
    req.end(options.body);
  });
}

/** The body as the server meant it: unpacked from brotli or gzip when it was sent so. */
export function unpacked(answer: { headers: Record<string, unknown>; body: Buffer }): Buffer {
  const encoding = answer.headers['content-encoding'];
  return encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body;
}
