import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { OidcCallbackQuerySchema, OidcLoginQuerySchema, OidcLogoutReplySchema, OidcTokenBodySchema, type OidcCallbackQuery, type OidcLoginQuery, type OidcTokenBody } from '../../contract/oidc';
import type { BrowserAnswer, BrowserRequest, OidcService } from './service';

export interface OidcRoutesOptions {
  oidc: OidcService;
  /** The client address per `--trustedProxy` (throttling key, logs). */
  addressOf: (request: FastifyRequest) => string;
  /** The public origin per `--trustedProxy` (lib/request-origin.ts). */
  originOf: (request: FastifyRequest) => string | undefined;
}

function browser(request: FastifyRequest, opts: OidcRoutesOptions): BrowserRequest {
  return { origin: opts.originOf(request), cookie: request.headers.cookie, address: opts.addressOf(request) };
}

function send(reply: FastifyReply, answer: BrowserAnswer): FastifyReply {
  // The answers carry a one-time flow or hand-over: never cached, never a Referer.
  return reply.code(303).headers({ location: answer.location, 'set-cookie': answer.cookie, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' }).send();
}

/** Public: the OpenID Connect sign-in of beyond.md §4.3 (start, provider callback, token hand-over). */
export function oidcRoutes(app: FastifyInstance, opts: OidcRoutesOptions): void {
  app.get<{ Querystring: OidcLoginQuery }>('/api/auth/oidc/login', { schema: { querystring: OidcLoginQuerySchema } }, async (request, reply) =>
    send(reply, await opts.oidc.start(browser(request, opts), request.query.redirect)));
  app.get<{ Querystring: OidcCallbackQuery }>('/api/auth/oidc/callback', { schema: { querystring: OidcCallbackQuerySchema } }, async (request, reply) => {
    const raw = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    return send(reply, await opts.oidc.finish(browser(request, opts), { ...request.query, raw }));
  });
  app.post<{ Body: OidcTokenBody }>('/api/auth/oidc/token', { schema: { body: OidcTokenBodySchema } }, async (request, reply) => {
    const token = await opts.oidc.redeem(request.body.code);
    return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(token);
  });
}

/** Signed-in: POST /api/auth/oidc/logout ends the caller's sessions and names the provider's end-session address. */
export function oidcSessionRoutes(app: FastifyInstance, opts: Pick<OidcRoutesOptions, 'oidc' | 'originOf'>): void {
  app.post('/api/auth/oidc/logout', { schema: { response: { 200: OidcLogoutReplySchema } } }, async (request) => ({
    url: await opts.oidc.logout(request.user, opts.originOf(request)),
  }));
}
