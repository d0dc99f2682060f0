import type { FastifyInstance } from 'fastify';
import { RawQuerySchema } from '../../contract/raw';
import { sendServed } from '../../http/served';
import type { PreviewRouteService } from './service';

export interface PreviewRoutesOptions {
  preview: PreviewRouteService;
}

type PreviewRoute = { Params: { size: string; '*'?: string }; Querystring: { inline?: string } };

/** Signed-in: GET (and HEAD) /api/preview/{size}{p}, api.md §3.12. The UI adds `key=` as a cache-buster. */
export function previewRoutes(app: FastifyInstance, opts: PreviewRoutesOptions): void {
  app.get<PreviewRoute>('/api/preview/:size/*', { schema: { querystring: RawQuerySchema } }, async (request, reply) => {
    const req = { size: request.params.size, path: request.params['*'] ?? '', inline: request.query.inline === 'true', method: request.method, headers: request.headers };
    return sendServed(reply, await opts.preview.get(request.user, req));
  });
}
