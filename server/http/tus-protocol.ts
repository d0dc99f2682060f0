import type { FastifyInstance } from 'fastify';
import { isAppError } from '../errors';
import { drain } from '../tus/append';
import { checkTusResumable, DRAIN_LIMIT, TUS_VERSION } from '../tus/protocol';

/**
 * tus 1.0 around every route of this plugin: a foreign `Tus-Resumable` answers 412 (OPTIONS
 * excepted), every response names the version, and a refused request's body is read and dropped
 * (up to 32 MiB) before the answer, so the keep-alive connection carries the client's next request
 * (a PATCH of an upload that is gone excepted).
 */
export function tusProtocol(app: FastifyInstance): void {
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
