import type { FastifyReply } from 'fastify';

/**
 * An AbortSignal that fires when the client goes away before the response is complete, so a
 * long walk, archive or search can stop reading the disk (the connection closed early).
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client went away'));
  });
  return controller.signal;
}
