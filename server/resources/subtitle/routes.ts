import type { FastifyInstance } from 'fastify';
import { RawQuerySchema } from '../../contract/raw';
import { sendServed } from '../../http/served';
import type { SubtitleRouteService } from './service';

export interface SubtitleRoutesOptions {
  subtitle: SubtitleRouteService;
}

type SubtitleRoute = { Params: { '*'?: string }; Querystring: { inline?: string } };

/** Signed-in: GET (and HEAD) /api/subtitle{p}, api.md §3.13. */
export function subtitleRoutes(app: FastifyInstance, opts: SubtitleRoutesOptions): void {
  app.get<SubtitleRoute>('/api/subtitle/*', { schema: { querystring: RawQuerySchema } }, async (request, reply) => {
    const req = { path: request.params['*'] ?? '', inline: request.query.inline === 'true', method: request.method, headers: request.headers };
    return sendServed(reply, await opts.subtitle.get(request.user, req));
  });
  // The bare prefix redirects to the root, as upstream's prefix stripper does (api.md §1.1).
  app.get('/api/subtitle', (_request, reply) => reply.redirect('/api/subtitle/', 301));
}
