import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authenticate } from '../accounts/authenticate';
import { API_TOKEN_PREFIX, verifyApiToken } from '../accounts/api-tokens';
import type { SessionTracker } from '../accounts/sessions';
import type { TokenCodec } from '../accounts/token';
import { AppError } from '../errors';
import type { Throttle } from '../lib/throttle';
import type { Store } from '../state/store';

declare module 'fastify' {
  interface FastifyRequest {
    /** True when the caller signed in with an API token (beyond.md §4.1), not a session. */
    apiToken: boolean;
  }
}

/** What API-token sign-in needs beside the store: the shared throttle and the client address. */
export interface ApiTokenAuth {
  throttle: Throttle;
  addressOf: (request: FastifyRequest) => string;
}

export interface AuthPluginOptions {
  store: Store;
  sessions: SessionTracker;
  /** Verifies tokens (plugins/tokens.ts registers @fastify/jwt, which declares `request.user`). */
  tokens: TokenCodec;
  /** API tokens (`fm_…` as Bearer or X-Auth); without it only session tokens are taken. */
  apiTokens?: ApiTokenAuth;
  now?: () => number;
}

// Failed API tokens are counted under this name beside the client address (one throttle, api.md §14).
const API_TOKEN_NAME = '\u0000api-token';

/** The API token of a request: `Authorization: Bearer fm_…` or `X-Auth: fm_…`. */
function apiTokenOf(request: FastifyRequest): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(header(request, 'authorization') ?? '')?.[1];
  if (bearer?.startsWith(API_TOKEN_PREFIX)) return bearer;
  const xAuth = header(request, 'x-auth');
  return xAuth?.startsWith(API_TOKEN_PREFIX) ? xAuth : undefined;
}

/** Signs a request in with API token `raw`: its owner with the token's rights, or 401 (counted by the throttle). */
async function signInWithApiToken(request: FastifyRequest, raw: string, opts: AuthPluginOptions & { apiTokens: ApiTokenAuth }): Promise<void> {
  const address = opts.apiTokens.addressOf(request);
  await opts.apiTokens.throttle.check(address, API_TOKEN_NAME);
  const now = opts.now ?? Date.now;
  let found = verifyApiToken(opts.store, raw, now());
  if (!found) {
    // Another instance may have created it a moment ago (beyond.md §10): ask the store, then look again.
    await opts.store.refresh({ verify: true });
    found = verifyApiToken(opts.store, raw, now());
  }
  if (!found) {
    await opts.apiTokens.throttle.fail(address, API_TOKEN_NAME);
    throw new AppError('unauthorized');
  }
  request.user = { ...structuredClone(found.user), perm: found.perm };
  request.apiToken = true;
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
  if (!app.hasRequestDecorator('apiToken')) app.decorateRequest('apiToken', false);
  app.addHook('onRequest', async (request, reply) => {
    const raw = opts.apiTokens ? apiTokenOf(request) : undefined;
    if (raw !== undefined && opts.apiTokens) return signInWithApiToken(request, raw, { ...opts, apiTokens: opts.apiTokens });
    const src = {
      method: request.method,
      header: header(request, 'x-auth'),
      cookie: header(request, 'cookie'),
      headerValue: (name: string) => header(request, name),
    };
    const check = () => authenticate(opts.store.data(), src, { sessions: opts.sessions, tokens: opts.tokens, nowMs: now() });
    let signedIn: ReturnType<typeof check>;
    try {
      signedIn = check();
    } catch (error) {
      // A user created on another instance a moment ago (beyond.md §10): ask the store, then once more.
      if (!(error instanceof AppError) || error.code !== 'unauthorized') throw error;
      await opts.store.refresh({ verify: true });
      signedIn = check();
    }
    const { user, renew } = signedIn;
    request.user = structuredClone(user);
    if (renew) reply.header('X-Renew-Token', 'true');
  });
}, { name: 'auth' });

/** preHandler of admin-only routes: 403 unless the signed-in user has `perm.admin`. */
export function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.user?.perm.admin) return Promise.reject(new AppError('forbidden'));
  return Promise.resolve();
}

/** preHandler of routes a session must call (renew, new tokens, two-factor changes): 403 for an API token. */
export function requireSession(request: FastifyRequest): Promise<void> {
  if (request.apiToken) return Promise.reject(new AppError('forbidden'));
  return Promise.resolve();
}
