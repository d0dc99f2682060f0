import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { UploadedFileSchema } from '../../contract/share';
import { tusProtocol } from '../../http/tus-protocol';
import { sendStatus } from '../../lib/send-status';
import { TUS_EXTENSIONS, TUS_VERSION } from '../../tus/protocol';
import type { UploadLinkRequest, UploadLinkService } from './upload-service';

export interface UploadLinkRoutesOptions {
  uploads: UploadLinkService;
  /** The client address per `--trustedProxy` (the rate window's and the password throttle's key). */
  addressOf: (request: FastifyRequest) => string;
  /** The configured base URL, for the `Location` of a created upload. */
  baseURL: string;
}

type UploadRoute = { Params: { '*': string }; Querystring: { token?: string; upload?: string } };

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function linkRequest(request: FastifyRequest<UploadRoute>, addressOf: UploadLinkRoutesOptions['addressOf']): UploadLinkRequest {
  return { path: request.params['*'], token: request.query.token, password: firstHeader(request.headers['x-share-password']), address: addressOf(request) };
}

function contentLengthOf(request: FastifyRequest): number | undefined {
  const text = request.headers['content-length'];
  return text !== undefined && /^\d+$/u.test(text) ? Number(text) : undefined;
}

function bodyOf(request: FastifyRequest): Readable {
  return request.body instanceof Readable ? request.body : Readable.from([]);
}

/** Bodies stay unread streams whatever their Content-Type: the file is the bytes themselves. */
function rawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: Number.MAX_SAFE_INTEGER }, (_request, payload, done) => done(null, payload));
}

/** Public: POST /api/public/upload/{hash}/{name}, one file through an upload link (beyond.md §2). */
export function uploadLinkRoutes(app: FastifyInstance, opts: UploadLinkRoutesOptions): void {
  const { uploads, addressOf } = opts;
  rawBodies(app);
  const schema = { response: { 201: UploadedFileSchema } };
  app.post<UploadRoute>('/api/public/upload/*', { schema }, async (request, reply) => {
    const req = { ...linkRequest(request, addressOf), body: bodyOf(request), contentLength: contentLengthOf(request) };
    return reply.code(201).send(await uploads.upload(req));
  });
}

function locationOf(baseURL: string, created: { hash: string; name: string; uploadId: string }): string {
  const base = baseURL.replace(/^\/+|\/+$/gu, '');
  const path = `/api/public/tus/${encodeURIComponent(created.hash)}/${encodeURIComponent(created.name)}?upload=${created.uploadId}`;
  return `${base === '' ? '' : `/${base}`}${path}`;
}

function sendOptions(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(204).headers({ 'tus-version': TUS_VERSION, 'tus-extension': TUS_EXTENSIONS }).send();
}

/**
 * Public: tus at /api/public/tus/{hash}/{name} (beyond.md §2, api.md §3.17). The creation answers
 * 201 with `{"name"}` and a Location that carries the upload's secret id, which alone opens its
 * HEAD, PATCH and DELETE; the PATCH that completes it names the stored file in `Upload-Name`.
 */
export function uploadLinkTusRoutes(app: FastifyInstance, opts: UploadLinkRoutesOptions): void {
  const { uploads, addressOf } = opts;
  tusProtocol(app);
  app.options('/api/public/tus/*', sendOptions);
  app.post<UploadRoute>('/api/public/tus/*', { schema: { response: { 201: UploadedFileSchema } } }, async (request, reply) => {
    const created = await uploads.create({ ...linkRequest(request, addressOf), length: request.headers['upload-length'] });
    return reply.code(201).header('location', locationOf(opts.baseURL, created)).send({ name: created.name });
  });
  app.route<UploadRoute>({
    method: ['HEAD', 'GET'],
    url: '/api/public/tus/*',
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { offset, length } = await uploads.status({ ...linkRequest(request, addressOf), uploadId: request.query.upload });
      return reply.code(200).headers({ 'upload-offset': String(offset), 'upload-length': String(length) }).send();
    },
  });
  app.patch<UploadRoute>('/api/public/tus/*', async (request, reply) => {
    const req = { ...linkRequest(request, addressOf), uploadId: request.query.upload, contentType: request.headers['content-type'], offset: request.headers['upload-offset'], contentLength: contentLengthOf(request), body: request.raw };
    const { offset, name } = await uploads.append(req);
    if (name !== undefined) reply.header('upload-name', encodeURIComponent(name));
    return reply.code(204).header('upload-offset', String(offset)).send();
  });
  app.delete<UploadRoute>('/api/public/tus/*', async (request, reply) => {
    await uploads.abort({ ...linkRequest(request, addressOf), uploadId: request.query.upload });
    return sendStatus(reply, 204);
  });
}
