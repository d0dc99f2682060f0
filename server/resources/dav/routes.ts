import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EXTRA_METHODS, type DavService } from './service';

export interface DavRoutesOptions {
  dav: DavService;
  addressOf: (request: FastifyRequest) => string;
}

/**
 * Public (Basic auth of its own): the WebDAV server at /dav and /dav/* (beyond.md §1). Bodies
 * stay unread streams: PUT streams to disk, XML bodies are read with a 64 KiB cap.
 */
export function davRoutes(app: FastifyInstance, opts: DavRoutesOptions): void {
  for (const method of EXTRA_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: Number.MAX_SAFE_INTEGER }, (_request, payload, done) => done(null, payload));
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const out = await opts.dav.handle({ method: request.method, url: request.url, headers: request.headers, body: request.raw, address: opts.addressOf(request) });
    reply.code(out.status);
    if (out.headers) reply.headers(out.headers);
    return reply.send(out.body);
  };
  const methods = ['OPTIONS', 'GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH', ...EXTRA_METHODS];
  app.route({ method: methods, url: '/dav', handler });
  app.route({ method: methods, url: '/dav/*', handler });
}
