import { request, type IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { ServerHandle } from './harness';
import { apiAs } from './session';
import { createUserByApi, strongPassword } from './settings';

/** A WebDAV answer: status, headers and the body as text. */
export interface DavAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface DavRequest {
  /** Basic credentials; null sends none. The server's admin unless said. */
  auth?: { username: string; password: string } | null;
  headers?: Record<string, string>;
  /** A string or Buffer is sent with Content-Length; a stream is sent chunked (no Content-Length). */
  body?: string | Buffer | Readable;
}

/** The Basic Authorization header of RFC 7617 (UTF-8). */
export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * Sends one request with node:http, so the request target goes out byte for byte as written
 * (`..`, `%2e%2e` and `%2f` reach the server; fetch and URL would normalise them away).
 */
// eslint-disable-next-line max-params -- method and target read as the request line; the options are optional.
export function dav(server: ServerHandle, method: string, target: string, req: DavRequest = {}): Promise<DavAnswer> {
  const url = new URL(server.url);
  const auth = req.auth === undefined ? { username: server.username, password: server.password } : req.auth;
  const headers: Record<string, string> = { ...(auth ? { Authorization: basic(auth.username, auth.password) } : {}), ...req.headers };
  const { body } = req;
  if (typeof body === 'string' || Buffer.isBuffer(body)) headers['Content-Length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    if (body === undefined) outgoing.end();
    else if (typeof body === 'string' || Buffer.isBuffer(body)) outgoing.end(body);
    else body.pipe(outgoing);
  });
}

/** A header of an answer as one string ('' when absent; repeated headers joined). */
export function header(answer: DavAnswer, name: string): string {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

/** Every `<D:href>` of a multistatus body (any prefix), as sent. */
export function hrefs(multistatus: string): string[] {
  return [...multistatus.matchAll(/<(?:[A-Za-z0-9]+:)?href>([^<]*)<\/(?:[A-Za-z0-9]+:)?href>/g)].map((m) => m[1] ?? '');
}

/** The text of the first element named `local` (any prefix) in an XML body, or undefined. */
export function xmlText(body: string, local: string): string | undefined {
  const match = new RegExp(`<(?:[A-Za-z0-9]+:)?${local}(?:\\s[^>]*)?>([^<]*)</(?:[A-Za-z0-9]+:)?${local}>`).exec(body);
  return match?.[1];
}

export const PROPFIND_ALL = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';

/** A LOCK request body (RFC 4918 §9.10): exclusive or shared write lock owned by `owner`. */
export function lockInfo(owner: string, scope: 'exclusive' | 'shared' = 'exclusive'): string {
  return `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>${owner}</D:href></D:owner></D:lockinfo>`;
}

export interface DavPermissions {
  admin?: boolean;
  create?: boolean;
  rename?: boolean;
  modify?: boolean;
  delete?: boolean;
  share?: boolean;
  download?: boolean;
  execute?: boolean;
}

const ALL: Required<DavPermissions> = { admin: false, create: true, rename: true, modify: true, delete: true, share: true, download: true, execute: false };

/** Creates a user (scope, permissions and rules as given) through the API; resolves with its credentials. */
export async function davUser(server: ServerHandle, user: { username: string; scope: string; perm?: DavPermissions; rules?: unknown[] }): Promise<{ username: string; password: string }> {
  const api = await apiAs(server);
  const password = strongPassword(user.username);
  const perm = { ...ALL, ...user.perm };
  // Share needs download (api.md: 400 otherwise).
  if (!perm.download) perm.share = false;
  await createUserByApi(api, server.password, { username: user.username, password, scope: user.scope, perm, rules: user.rules ?? [] });
  return { username: user.username, password };
}
