import { BlockList, isIP } from 'node:net';

/** Decides whether a peer address is one of the `--trustedProxy` entries. */
export type ProxyTrust = (address: string) => boolean;

/** Strips the IPv4-mapped IPv6 prefix (`::ffff:1.2.3.4`) and an IPv6 zone so lists compare plainly. */
function plainAddress(address: string): string {
  const trimmed = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  if (mapped?.[1]) return mapped[1];
  const zone = trimmed.indexOf('%');
  return zone >= 0 ? trimmed.slice(0, zone) : trimmed;
}

function addEntry(list: BlockList, entry: string): void {
  const [ip = '', prefix] = entry.trim().split('/');
  const addr = plainAddress(ip);
  const family = isIP(addr);
  if (family === 0) throw new Error(`--trustedProxy: "${entry}" is not an IP address or CIDR range`);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) {
    list.addAddress(addr, type);
    return;
  }
  const bits = Number(prefix);
  if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`--trustedProxy: "${entry}" has an invalid prefix length`);
  list.addSubnet(addr, bits, type);
}

/** Builds the trust test for `--trustedProxy` entries (IPs or CIDRs); throws on a malformed entry. */
export function createProxyTrust(entries: readonly string[]): ProxyTrust {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) addEntry(list, entry);
  return (address) => {
    const addr = plainAddress(address);
    const family = isIP(addr);
    return family !== 0 && list.check(addr, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client address used for throttling and logs (api.md §14): the TCP peer, unless the peer is a
 * trusted proxy; then the nearest `X-Forwarded-For` hop, walking right to left, that is not a
 * trusted proxy itself (hops a client wrote on the left are never believed past that point).
 */
export function clientAddress(peer: string, forwardedFor: string | string[] | undefined, trust: ProxyTrust): string {
  const direct = plainAddress(peer);
  if (!trust(direct) || forwardedFor === undefined) return direct;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = header.split(',').map((h) => plainAddress(h)).filter((h) => h !== '');
  let last = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] ?? '';
    if (!trust(hop)) return hop;
    last = hop;
  }
  return last;
}

/** The parts of a request the client address is read from. */
export interface AddressSource {
  socket: { remoteAddress?: string | undefined };
  headers: Record<string, string | string[] | undefined>;
}

/** A resolver of the client address of requests for the given `--trustedProxy` entries. */
export function addressResolver(entries: readonly string[]): (req: AddressSource) => string {
  const trust = createProxyTrust(entries);
  return (req) => clientAddress(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], trust);
}

/** 127.0.0.0/8 and ::1: the peer a reverse proxy on the same host connects from. */
function isLoopback(address: string): boolean {
  const addr = plainAddress(address);
  return addr === '::1' || addr.startsWith('127.');
}

/**
 * A per-request check that calls `warn` the first time (only) a request carries X-Forwarded-For
 * from a loopback peer that is not a trusted proxy: a reverse proxy is in front, so every client
 * shares its address and five bad guesses lock a name or share for everyone (api.md §14).
 */
export function untrustedProxyWatch(entries: readonly string[], warn: (message: string) => void): (req: AddressSource) => void {
  const trust = createProxyTrust(entries);
  let warned = false;
  return (req) => {
    if (warned || req.headers['x-forwarded-for'] === undefined) return;
    const peer = plainAddress(req.socket.remoteAddress ?? '');
    if (!isLoopback(peer) || trust(peer)) return;
    warned = true;
    warn(
      `a request from ${peer} carries X-Forwarded-For, but ${peer} is not a trusted proxy: every client behind the proxy ` +
        `shares its address, so 5 failed sign-ins or share passwords lock that name or share for everyone for 15 minutes. ` +
        `Start filemgr with --trustedProxy ${peer} (or FILEMGR_TRUSTED_PROXY=${peer}) to use the real client address.`,
    );
  };
}
