import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

const NGINX = ['127.0.0.1', '::1'];

describe('the visitor’s address behind a proxy', () => {
  it.each([
    ['no proxy configured: the connection, whatever the header says', '203.0.113.7', '198.51.100.1', [], '203.0.113.7'],
    ['a connection not from the proxy: its own address, the header ignored', '203.0.113.7', '198.51.100.1', NGINX, '203.0.113.7'],
    ['from the proxy: the address it appended', '127.0.0.1', '198.51.100.1', NGINX, '198.51.100.1'],
    ['an IPv4 connection on a dual-stack socket counts as the proxy', '::ffff:127.0.0.1', '198.51.100.1', NGINX, '198.51.100.1'],
    ['a visitor’s own header only adds entries to the left', '127.0.0.1', '10.0.0.1, 6.6.6.6, 198.51.100.1', NGINX, '198.51.100.1'],
    ['proxies of our own on the right are skipped', '127.0.0.1', '198.51.100.1, ::1', NGINX, '198.51.100.1'],
    ['the header split over two lines', '127.0.0.1', ['1.1.1.1', '198.51.100.9'], NGINX, '198.51.100.9'],
    ['garbage in the header: the connection', '127.0.0.1', '198.51.100.1, <script>', NGINX, '127.0.0.1'],
    ['no header from the proxy: the proxy', '127.0.0.1', undefined, NGINX, '127.0.0.1'],
    ['only our proxies in the header: the proxy', '127.0.0.1', '::1', NGINX, '127.0.0.1'],
    ['IPv6 visitors', '::1', '2001:db8::5', NGINX, '2001:db8::5'],
  ] as const)('%s', (_, socket, header, trusted, expected) => {
    expect(clientAddress(socket, header as string | string[] | undefined, trusted)).toBe(expected);
  });
});
