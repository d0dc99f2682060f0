import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ResourceSchema } from '../../contract/resource';
import { PublicShareQuerySchema, type PublicShareQuery } from '../../contract/share';
import { rawRequest, sendRaw } from '../../http/raw-request';
import type { PublicRequest, PublicService } from './service';

export interface PublicRoutesOptions {
  public: PublicService;
  /** The client address per `--trustedProxy` (the share-password throttle's key). */
  addressOf: (request: FastifyRequest) => string;
}

type PublicRoute = { Params: { '*': string }; Querystring: PublicShareQuery };

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function publicRequest(request: FastifyRequest<PublicRoute>, addressOf: PublicRoutesOptions['addressOf']): PublicRequest {
  return {
    path: request.params['*'],
    token: request.query.token,
    password: firstHeader(request.headers['x-share-password']),
    address: addressOf(request),
  };
}

/** Public (no token): GET /api/public/share/{hash}{sub} and GET|HEAD /api/public/dl/{hash}{sub}, api.md §3.16. */
export function publicRoutes(app: FastifyInstance, opts: PublicRoutesOptions): void {
  const { public: service, addressOf } = opts;
  app.get<PublicRoute>('/api/public/share/*', { schema: { querystring: PublicShareQuerySchema, response: { 200: ResourceSchema } } }, async (request, reply) => {
    const info = await service.info(publicRequest(request, addressOf));
    if (!('kind' in info)) return info;
    // An upload link's four fields (built by the service, never a record) instead of a FileInfo.
    return reply.type('application/json; charset=utf-8').serializer((payload) => JSON.stringify(payload)).send(info);
  });
  app.route<PublicRoute>({
    method: ['GET', 'HEAD'],
    url: '/api/public/dl/*',
    schema: { querystring: PublicShareQuerySchema },
    handler: async (request, reply) => {
      // The raw download request as /api/raw builds it; the path is decided by the share.
      const { path: _path, ...raw } = rawRequest(request, reply);
      return sendRaw(reply, await service.download(publicRequest(request, addressOf), raw));
    },
  });
}
