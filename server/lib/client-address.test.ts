import { describe, expect, it } from 'vitest';
import { clientAddress, createProxyTrust } from './client-address';

describe('client address', () => {
  const trust = createProxyTrust(['10.0.0.1', '192.168.0.0/16', 'fd00::/8']);

  it.each([
    ['an untrusted peer, whatever it forwards', '203.0.113.9', '1.2.3.4', '203.0.113.9'],
    ['a trusted peer without X-Forwarded-For', '10.0.0.1', undefined, '10.0.0.1'],
    ['a trusted peer: the nearest hop', '10.0.0.1', '1.2.3.4, 198.51.100.7', '198.51.100.7'],
    ['trusted hops skipped right to left', '10.0.0.1', '6.6.6.6, 198.51.100.7, 192.168.4.4', '198.51.100.7'],
    ['a forged left-most hop is never reached', '10.0.0.1', '127.0.0.1, 198.51.100.7', '198.51.100.7'],
    ['only trusted hops: the left-most', '10.0.0.1', '192.168.1.1, 192.168.1.2', '192.168.1.1'],
    ['an IPv4-mapped IPv6 peer', '::ffff:10.0.0.1', '198.51.100.7', '198.51.100.7'],
    ['a trusted IPv6 range', 'fd12::1', '2001:db8::5', '2001:db8::5'],
  ])('uses %s', (...row) => {
    const [, peer, xff, expected] = row;
    expect(clientAddress(peer, xff, trust)).toBe(expected);
  });

  it('trusts nobody without --trustedProxy', () => {
    expect(clientAddress('10.0.0.1', '1.2.3.4', createProxyTrust([]))).toBe('10.0.0.1');
  });

  it.each(['not-an-ip', '10.0.0.0/33', '10.0.0.0/x'])('refuses the --trustedProxy entry %s', (entry) => {
    expect(() => createProxyTrust([entry])).toThrow(/--trustedProxy/);
  });
});
