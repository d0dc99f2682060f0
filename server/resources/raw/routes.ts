import type { FastifyInstance } from 'fastify';
import { RawQuerySchema, type RawQuery } from '../../contract/raw';
import { rawRequest, sendRaw } from '../../http/raw-request';
import type { RawService } from './service';

export interface RawRoutesOptions {
  raw: RawService;
}

type RawRoute = { Params: { '*': string }; Querystring: RawQuery };

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
