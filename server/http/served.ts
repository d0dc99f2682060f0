import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors';
import type { PathGate } from '../fs/scope';
import { statusBody, statusBodyHeaders } from '../lib/status-body';
import { ROUTE_CSP } from '../plugins/security-headers';
import { contentRange, selectRanges } from './http-range';
import { checkPreconditions } from './preconditions';

/**
 * Responses of the preview and subtitle routes: bytes made in memory (a preview, a converted
 * subtitle) served the way Go's ServeContent serves them (api.md §3.12 step 10, §3.13 step 4), or
 * the original file served as /api/raw serves it.
 */

/** A decided response; the route writes it as it is. */
export interface Served {
  status: number;
  headers: Record<string, string | string[]>;
  /** Absent: no body (HEAD, 304); a string: a status body such as "202 Accepted\n". */
  body?: Readable | Buffer | string;
}

/** What of a GET or HEAD shapes the response. */
export interface ServeRequest {
  method: string;
  headers: IncomingHttpHeaders;
}

/** Serves a file through a gate unchanged, as GET /api/raw does (app.ts passes the raw service's). */
export type RawFileServer = (gate: PathGate, req: ServeRequest & { path: string; inline: boolean }) => Promise<Served>;

/** A status-only answer such as `202 Accepted\n` (api.md §1.6). */
export function statusServed(status: number): Served {
  return { status, headers: { ...statusBodyHeaders }, body: statusBody(status) };
}

/** What identifies the bytes: the source file's time and a tag of this rendition of it. */
export interface BytesMeta {
  mtimeMs: number;
  /** Entity tag of the bytes (weak: a rendition can be re-encoded differently). */
  etag: string;
  /** Headers decided by the caller: type, disposition, caching, security. */
  headers: Record<string, string | string[]>;
}

/**
 * Serves in-memory bytes with ServeContent's semantics: Last-Modified (the source file's time),
 * 412/304 for the conditional headers, 206 for one satisfiable range (several are answered with
 * the whole body, which RFC 9110 allows), 416 for an unsatisfiable one, no body for HEAD.
 */
export function serveBytes(body: Buffer, req: ServeRequest, meta: BytesMeta): Served {
  const base: Record<string, string | string[]> = { ...meta.headers, etag: meta.etag };
  if (meta.mtimeMs !== 0) base['last-modified'] = new Date(meta.mtimeMs).toUTCString();
  const outcome = checkPreconditions(req.headers, { etag: meta.etag, mtimeMs: meta.mtimeMs });
  if (outcome.kind === 'failed') throw new AppError('precondition_failed');
  if (outcome.kind === 'not-modified') {
    const { 'content-type': _type, 'last-modified': _date, ...kept } = base;
    return { status: 304, headers: kept };
  }
  const ranges = selectRanges(outcome.range, body.length);
  const range = ranges.length === 1 ? ranges[0] : undefined;
  const sent = range ? body.subarray(range.start, range.start + range.length) : body;
  const headers: Record<string, string | string[]> = { ...base, 'accept-ranges': 'bytes', 'content-length': String(sent.length) };
  if (range) headers['content-range'] = contentRange(range, body.length);
  return { status: range ? 206 : 200, headers, body: req.method === 'HEAD' ? undefined : sent };
}

/** Writes a decided response; a response's own CSP goes after the global one (api.md §1.3, §3.11). */
export function sendServed(reply: FastifyReply, res: Served): FastifyReply {
  const csp = res.headers['content-security-policy'];
  const headers = csp === undefined ? res.headers : { ...res.headers, 'content-security-policy': [ROUTE_CSP, ...[csp].flat()] };
  return reply.code(res.status).headers(headers).send(res.body);
}
