import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RawQuery } from '../contract/raw';
import { clientGone } from '../lib/client-signal';
import { ROUTE_CSP } from '../plugins/security-headers';
import type { RawResponse } from './send-file';

/** A download request as the raw service sees it (signed-in /api/raw and public /api/public/dl). */
export interface RawRequest {
  /** The user path after the route prefix, as requested. */
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  query: { inline?: string; files?: string; algo?: string };
  /** Aborted when the client went away: stops archive walks and compressors. */
  signal: AbortSignal;
  /** Reports archive members left out. */
  onSkip: (path: string, err: Error) => void;
}

type RawRoute = { Params: { '*': string }; Querystring: RawQuery };

/** The request as the raw service reads it; skipped archive members are logged. */
export function rawRequest(request: FastifyRequest<RawRoute>, reply: FastifyReply): RawRequest {
  return {
    path: request.params['*'],
    method: request.method,
    headers: request.headers,
    query: request.query,
    signal: clientGone(reply),
    onSkip: (path, err) => request.log.warn({ path, reason: err.message }, 'archive member skipped'),
  };
}

/** Writes a raw response; the global CSP goes first when the download adds its own (api.md §3.11). */
export function sendRaw(reply: FastifyReply, res: RawResponse): FastifyReply {
  const csp = res.headers['content-security-policy'];
  const headers = csp === undefined ? res.headers : { ...res.headers, 'content-security-policy': [ROUTE_CSP, ...[csp].flat()] };
  return reply.code(res.status).headers(headers).send(res.body);
}
