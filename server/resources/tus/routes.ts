import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ResourcePostQuerySchema } from '../../contract/resource';
import { isAppError } from '../../errors';
import { sendStatus } from '../../lib/send-status';
import { recordActivity } from '../../plugins/activity';
import { checkTusResumable, DRAIN_LIMIT, TUS_EXTENSIONS, TUS_VERSION, uploadLocation } from '../../tus/protocol';
import { drain } from '../../tus/append';
import type { TusService } from './service';

export interface TusRoutesOptions {
  tus: TusService;
  /** The configured base URL, for the `Location` of a created upload. */
  baseURL: string;
}

type PathParams = { Params: { '*'?: string } };

function pathOf(request: FastifyRequest<PathParams>): string {
  return request.params['*'] ?? '';
}

function contentLengthOf(request: FastifyRequest): number | undefined {
  const text = request.headers['content-length'];
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/**
 * tus 1.0 around every route of this plugin: a foreign `Tus-Resumable` answers 412 (OPTIONS
 * excepted), every response names the version, and a refused request's body is read and dropped
 * (up to 32 MiB) before the answer, so the keep-alive connection carries the client's next request
 * (a PATCH of an upload that is gone excepted).
 */
function tusProtocol(app: FastifyInstance): void {
  // Bodies stay unread streams: a PATCH streams to disk, anything else is drained or dropped.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: Number.MAX_SAFE_INTEGER }, (_request, payload, done) => done(null, payload));
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      if (request.method !== 'OPTIONS') checkTusResumable(request.headers['tus-resumable']);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'OPTIONS') reply.header('tus-resumable', TUS_VERSION);
    return payload;
  });
  app.addHook('onError', async (request, reply, error) => {
    // A PATCH of an upload that is gone (deleted, finished, expired) has no next chunk to carry:
    // it is refused at once, not after waiting out the rest of a body that may never come.
    const gone = request.method === 'PATCH' && isAppError(error) && error.code === 'not_found';
    if (gone || !(await drain(request.raw, DRAIN_LIMIT))) reply.header('connection', 'close');
  });
}

function sendOptions(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(204).headers({ 'tus-version': TUS_VERSION, 'tus-extension': TUS_EXTENSIONS }).send();
}

/** Signed-in: resumable uploads at /api/tus{p} (api.md §3.17, §14). */
export function tusRoutes(app: FastifyInstance, opts: TusRoutesOptions): void {
  const { tus } = opts;
  tusProtocol(app);
  app.options('/api/tus', sendOptions);
  app.options('/api/tus/*', sendOptions);
  // The bare prefix redirects to the root, as upstream's prefix stripper does (api.md §1.1).
  app.route({ method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'], url: '/api/tus', handler: (_request, reply) => reply.redirect('/api/tus/', 301) });

  app.post<PathParams & { Querystring: { override?: string } }>('/api/tus/*', { schema: { querystring: ResourcePostQuerySchema } }, async (request, reply) => {
    await tus.create(request.user, { raw: pathOf(request), override: request.query.override === 'true', length: request.headers['upload-length'] });
    return sendStatus(reply.header('location', uploadLocation(opts.baseURL, request.url)), 201);
  });
  app.route<PathParams>({
    method: ['HEAD', 'GET'],
    url: '/api/tus/*',
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { offset, length } = await tus.status(request.user, pathOf(request));
      return reply.code(200).headers({ 'upload-offset': String(offset), 'upload-length': String(length) }).send();
    },
  });
  app.patch<PathParams>('/api/tus/*', async (request, reply) => {
    const req = { raw: pathOf(request), contentType: request.headers['content-type'], offset: request.headers['upload-offset'], contentLength: contentLengthOf(request), body: request.raw };
    const { offset, length } = await tus.append(request.user, req);
    if (offset === length) recordActivity(request, { action: 'upload', path: pathOf(request), bytes: length, status: 204 });
    return reply.code(204).header('upload-offset', String(offset)).send();
  });
  app.delete<PathParams>('/api/tus/*', async (request, reply) => {
    await tus.abort(request.user, pathOf(request));
    return sendStatus(reply, 204);
  });
}
