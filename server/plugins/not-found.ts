import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { statusBody, statusBodyHeaders } from '../lib/status-body';

export interface NotFoundOptions {
  /** Answers a GET that matched no route with the SPA index (history mode). */
  sendIndex?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;
}

/** Turns a Fastify URL pattern into a regular expression over concrete paths. */
function patternToRegExp(url: string): RegExp {
  const escaped = url.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  const source = escaped.replace(/\*$/, '.*').replace(/:[A-Za-z0-9_]+/g, '[^/]+');
  return new RegExp(`^${source}$`);
}

/**
 * Requests that match no route: a path that matches a route under another method answers 405
 * with an empty body (api.md §1.2); any other GET gets the SPA index; everything else 404.
 */
export const notFoundPlugin = fp(function notFound(app: FastifyInstance, opts: NotFoundOptions) {
  const patterns: RegExp[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    patterns.push(patternToRegExp(route.url));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (patterns.some((re) => re.test(path))) return reply.code(405).send();
    if ((request.method === 'GET' || request.method === 'HEAD') && opts.sendIndex) return opts.sendIndex(request, reply);
    return reply.code(404).headers(statusBodyHeaders).send(statusBody(404));
  });
}, { name: 'not-found' });
