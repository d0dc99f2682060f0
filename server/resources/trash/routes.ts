import type { FastifyInstance } from 'fastify';
import { TrashItemSchema, TrashListSchema, TrashQuerySchema, TrashRestoreQuerySchema, type TrashQuery, type TrashRestoreQuery } from '../../contract/trash';
import { sendStatus } from '../../lib/send-status';
import type { TrashService } from './service';

export interface TrashRoutesOptions {
  trash: TrashService;
}

type IdParams = { Params: { id: string } };

/** Signed-in: /api/trash, beyond.md §3. `?user=<id>` lets an admin act on another user's trash. */
export function trashRoutes(app: FastifyInstance, opts: TrashRoutesOptions): void {
  const { trash } = opts;
  // No route reads a body: whatever one carries (and its Content-Type) is ignored.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => {
    payload.resume();
    done(null, undefined);
  });
  const query = { querystring: TrashQuerySchema };
  app.get<{ Querystring: TrashQuery }>('/api/trash', { schema: { ...query, response: { 200: TrashListSchema } } }, (request) => trash.list(request.user, request.query));
  app.delete<{ Querystring: TrashQuery }>('/api/trash', { schema: query }, async (request, reply) => {
    await trash.empty(request.user, request.query);
    return sendStatus(reply, 204);
  });
  app.delete<IdParams & { Querystring: TrashQuery }>('/api/trash/:id', { schema: query }, async (request, reply) => {
    await trash.remove(request.user, request.params.id, request.query);
    return sendStatus(reply, 204);
  });
  app.post<IdParams & { Querystring: TrashRestoreQuery }>(
    '/api/trash/:id/restore',
    { schema: { querystring: TrashRestoreQuerySchema, response: { 200: TrashItemSchema } } },
    (request) => trash.restore(request.user, request.params.id, request.query),
  );
}
