import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RawQuerySchema, type RawQuery } from '../../contract/raw';
import { clientGone } from '../../lib/client-signal';
import { ROUTE_CSP } from '../../plugins/security-headers';
import type { RawRequest, RawResponse, RawService } from './service';

export interface RawRoutesOptions {
  raw: RawService;
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

/** Signed-in: GET (and HEAD) /api/raw{p}, api.md §3.11. */
export function rawRoutes(app: FastifyInstance, opts: RawRoutesOptions): void {
  const { raw } = opts;
  app.route<RawRoute>({
    method: ['GET', 'HEAD'],
    url: '/api/raw/*',
    schema: { querystring: RawQuerySchema },
    handler: async (request, reply) => sendRaw(reply, await raw.forUser(request.user, rawRequest(request, reply))),
  });
  // The bare prefix redirects to the root, as upstream's prefix stripper does (api.md §1.1).
  app.get('/api/raw', (_request, reply) => reply.redirect('/api/raw/', 301));
}
