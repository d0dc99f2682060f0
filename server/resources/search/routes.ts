import type { FastifyInstance } from 'fastify';
import { SearchQuerySchema } from '../../contract/search';
import type { Static } from '@sinclair/typebox';
import { clientGone } from '../../lib/client-signal';
import type { SearchService } from './service';

export interface SearchRoutesOptions {
  search: SearchService;
}

type SearchRoute = { Params: { '*': string }; Querystring: Static<typeof SearchQuerySchema> };

/** Signed-in: GET /api/search{p}?query= (api.md §3.14), streamed newline-delimited JSON. */
export function searchRoutes(app: FastifyInstance, opts: SearchRoutesOptions): void {
  const { search } = opts;
  app.get<SearchRoute>('/api/search/*', { schema: { querystring: SearchQuerySchema } }, async (request, reply) => {
    const lines = await search.search(request.user, { path: request.params['*'], query: request.query.query ?? '', details: request.query.details === '1', signal: clientGone(reply) });
    // Upstream sets no type and Go sniffs the first line as text; say so explicitly.
    return reply.header('content-type', 'text/plain; charset=utf-8').send(lines);
  });
  app.get('/api/search', (_request, reply) => reply.redirect('/api/search/', 301));
}
