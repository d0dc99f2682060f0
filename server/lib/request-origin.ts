import { createProxyTrust } from './client-address';

/** The parts of a request its public origin is read from. */
export interface OriginSource {
  socket: { remoteAddress?: string | undefined; encrypted?: boolean };
  headers: Record<string, string | string[] | undefined>;
}

// A host name or IPv4 address, or a bracketed IPv6 address, with an optional port: nothing that
// could end the authority (/, ?, #, @, spaces) gets into an address built from it.
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const head = text?.split(',')[0]?.trim();
  return head === '' ? undefined : head;
}

/**
 * A resolver of a request's public origin (`https://files.example.com`) for the given
 * `--trustedProxy` entries: the Host header and the connection's TLS, or, when the peer is a
 * trusted proxy, its X-Forwarded-Proto and X-Forwarded-Host (the first, client-facing hop).
 * Undefined when the host is missing or malformed.
 */
export function originResolver(entries: readonly string[]): (req: OriginSource) => string | undefined {
  const trust = createProxyTrust(entries);
  return (req) => {
    const proxied = trust(req.socket.remoteAddress ?? '');
    const forwardedProto = proxied ? first(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
    const proto = forwardedProto === 'https' || forwardedProto === 'http' ? forwardedProto : req.socket.encrypted ? 'https' : 'http';
    const host = (proxied ? first(req.headers['x-forwarded-host']) : undefined) ?? first(req.headers.host);
    if (!host || !HOST.test(host)) return undefined;
    return `${proto}://${host.toLowerCase()}`;
  };
}
