import type { FastifyInstance } from 'fastify';
import { ShareCreateBodySchema, ShareListSchema, ShareSchema, type ShareCreateBody } from '../../contract/share';
import { AppError } from '../../errors';
import { decodeJsonBody } from '../../lib/json-body';
import { sendStatus } from '../../lib/send-status';
import type { SharesService } from './service';

export interface SharesRoutesOptions {
  shares: SharesService;
}

type PathParams = { Params: { '*': string } };

/** Signed-in: GET /api/shares and GET, POST, DELETE /api/share{p}, api.md §3.15. */
export function sharesRoutes(app: FastifyInstance, opts: SharesRoutesOptions): void {
  const { shares } = opts;
  // JSON whatever the Content-Type; undecodable JSON answers 400. An empty body is no body: a
  // DELETE may carry a Content-Type, and POST says itself that it needs one.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    const decoded = decodeJsonBody(text);
    if (decoded.ok) done(null, decoded.value);
    else done(new AppError('bad_request', decoded.reason), undefined);
  });
  const list = { schema: { response: { 200: ShareListSchema } } };
  app.get('/api/shares', list, (request) => shares.list(request.user));
  // The bare prefix redirects to the root, as upstream's prefix stripper does (api.md §1.1).
  app.get('/api/share', (_request, reply) => reply.redirect('/api/share/', 301));
  app.get<PathParams>('/api/share/*', list, (request) => shares.forPath(request.user, request.params['*']));
  app.post<PathParams & { Body: ShareCreateBody | undefined }>(
    '/api/share/*',
    { schema: { body: ShareCreateBodySchema, response: { 200: ShareSchema } } },
    (request) => shares.create(request.user, request.params['*'], request.body),
  );
  app.delete<PathParams>('/api/share/*', async (request, reply) => {
    await shares.remove(request.user, request.params['*']);
    return sendStatus(reply, 200);
  });
}
