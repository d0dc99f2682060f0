import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authenticate } from '../accounts/authenticate';
import type { SessionTracker } from '../accounts/sessions';
import type { TokenCodec } from '../accounts/token';
import { AppError } from '../errors';
import type { Store } from '../state/store';

export interface AuthPluginOptions {
  store: Store;
  sessions: SessionTracker;
  /** Verifies tokens (plugins/tokens.ts registers @fastify/jwt, which declares `request.user`). */
  tokens: TokenCodec;
  now?: () => number;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The signed-in scope: every route registered beside this plugin needs a valid token (X-Auth,
 * or the `auth` cookie on GET) of a user that still exists and whose sessions were not ended.
 * Sets `request.user` and the `X-Renew-Token: true` hint (api.md §2.3).
 */
export const authPlugin = fp(function auth(app: FastifyInstance, opts: AuthPluginOptions) {
  const now = opts.now ?? Date.now;
  app.addHook('onRequest', async (request, reply) => {
    const src = {
      method: request.method,
      header: header(request, 'x-auth'),
      cookie: header(request, 'cookie'),
      headerValue: (name: string) => header(request, name),
    };
    const { user, renew } = authenticate(opts.store.data(), src, { sessions: opts.sessions, tokens: opts.tokens, nowMs: now() });
    request.user = structuredClone(user);
    if (renew) reply.header('X-Renew-Token', 'true');
  });
}, { name: 'auth' });

/** preHandler of admin-only routes: 403 unless the signed-in user has `perm.admin`. */
export function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user?.perm.admin) return Promise.reject(new AppError('forbidden'));
  return Promise.resolve();
}
