import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { declaredLength } from '../../quota/admit';
import {
  RecursiveListSchema,
  ResourceGetQuerySchema,
  ResourcePatchQuerySchema,
  ResourcePostQuerySchema,
  ResourceSchema,
  type ResourcePatchQuery,
} from '../../contract/resource';
import { clientGone } from '../../lib/client-signal';
import { sendStatus } from '../../lib/send-status';
import type { ResourcesService } from './service';

export interface ResourcesRoutesOptions {
  resources: ResourcesService;
}

type PathParams = { Params: { '*'?: string } };

function pathOf(request: FastifyRequest<PathParams>): string {
  return request.params['*'] ?? '';
}

/** The raw request body as a stream (uploads are the bytes themselves, never multipart or JSON). */
function bodyOf(request: FastifyRequest): Readable {
  return request.body instanceof Readable ? request.body : Readable.from([]);
}

/**
 * Listings are serialised with the native JSON.stringify: on a 10,000-item listing it is several
 * times faster and steadier than the schema compiler, and keeps upstream's key order (items,
 * numDirs, numFiles, sorting, then the file fields). The schema still documents the shape.
 */
const nativeJson = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

function withEtag(reply: FastifyReply, etag: string | undefined): FastifyReply {
  return etag === undefined ? reply : reply.header('etag', etag);
}

/** Signed-in: /api/resources{p} and /api/resources/recursive{p}, api.md §3.4-§3.9. */
export function resourcesRoutes(app: FastifyInstance, opts: ResourcesRoutesOptions): void {
  const { resources } = opts;
  // Bodies are streamed to disk whatever their Content-Type, with no size cap of their own.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: Number.MAX_SAFE_INTEGER }, (_request, payload, done) => done(null, payload));

  // The bare prefix redirects to the root, as upstream's prefix stripper does (api.md §1.1).
  app.get('/api/resources', (_request, reply) => reply.redirect('/api/resources/', 301));
  app.get('/api/resources/recursive', (_request, reply) => reply.redirect('/api/resources/recursive/', 301));
  app.get<PathParams>('/api/resources/recursive/*', { schema: { response: { 200: RecursiveListSchema } }, ...nativeJson }, async (request, reply) => {
    const list = await resources.recursive(request.user, { raw: pathOf(request), signal: clientGone(reply) });
    // The client went away: write nothing (api.md §3.5).
    return list ?? reply.hijack();
  });
  app.get<PathParams & { Querystring: { checksum?: string } }>('/api/resources/*', { schema: { querystring: ResourceGetQuerySchema, response: { 200: ResourceSchema } }, ...nativeJson }, async (request, reply) => {
    const res = await resources.get(request.user, { raw: pathOf(request), checksum: request.query.checksum, xEncoding: request.headers['x-encoding'] === 'true' });
    if (res.kind === 'status') return sendStatus(reply, res.status);
    if (res.kind === 'bytes') return reply.type('application/octet-stream').send(res.stream);
    if (res.kind === 'jsonStream') return reply.type('application/json; charset=utf-8').send(res.stream);
    return res.body;
  });
  app.post<PathParams & { Querystring: { override?: string } }>('/api/resources/*', { schema: { querystring: ResourcePostQuerySchema } }, async (request, reply) => {
    const length = declaredLength(request.headers['content-length']);
    const etag = await resources.create(request.user, { raw: pathOf(request), override: request.query.override === 'true', body: bodyOf(request), length });
    return sendStatus(withEtag(reply, etag), 200);
  });
  app.put<PathParams>('/api/resources/*', async (request, reply) => {
    const etag = await resources.save(request.user, { raw: pathOf(request), body: bodyOf(request), length: declaredLength(request.headers['content-length']) });
    return sendStatus(withEtag(reply, etag), 200);
  });
  app.delete<PathParams & { Querystring: { permanent?: string } }>('/api/resources/*', async (request, reply) => {
    await resources.remove(request.user, pathOf(request), request.query.permanent === 'true');
    return sendStatus(reply, 204);
  });
  app.patch<PathParams & { Querystring: ResourcePatchQuery }>('/api/resources/*', { schema: { querystring: ResourcePatchQuerySchema } }, async (request, reply) => {
    await resources.patch(request.user, { raw: pathOf(request), query: request.query });
    return sendStatus(reply, 200);
  });
}
