import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ResourcePostQuerySchema } from '../../contract/resource';
import { sendStatus } from '../../lib/send-status';
import { recordActivity } from '../../plugins/activity';
import { tusProtocol } from '../../http/tus-protocol';
import { TUS_EXTENSIONS, TUS_VERSION, uploadLocation } from '../../tus/protocol';
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
