import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptRawBodies } from '../../lib/json-body';
import { sendStatus } from '../../lib/send-status';
import { requireSession } from '../../plugins/auth';
import type { AuthAttempt, AuthService } from './service';

export interface AuthRoutesOptions {
  auth: AuthService;
  /** The client address per `--trustedProxy` (throttling key). */
  addressOf: (request: FastifyRequest) => string;
}

function attempt(request: FastifyRequest, addressOf: AuthRoutesOptions['addressOf']): AuthAttempt {
  return {
    body: request.body,
    address: addressOf(request),
    header: (name) => {
      const v = request.headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    },
  };
}

/** Public: any-method /api/login and /api/signup (api.md §2.6, §2.8); bodies are decoded by the service. */
export function authRoutes(app: FastifyInstance, opts: AuthRoutesOptions): void {
  // Upstream decodes these bodies whatever their Content-Type; the service maps bad JSON per route.
  acceptRawBodies(app);
  app.all('/api/login', async (request, reply) => {
    const token = await opts.auth.login(attempt(request, opts.addressOf));
    return reply.type('text/plain; charset=utf-8').send(token);
  });
  app.all('/api/signup', async (request, reply) => {
    await opts.auth.signup(attempt(request, opts.addressOf));
    return sendStatus(reply, 200);
  });
}

/** Signed-in: /api/renew (any method) and POST /api/logout, which ends every token of the caller. */
export function sessionRoutes(app: FastifyInstance, opts: Pick<AuthRoutesOptions, 'auth'>): void {
  // An API token is never traded for a session: that would drop its narrower rights (beyond.md §4.1).
  app.all('/api/renew', { preHandler: requireSession }, (request, reply) => {
    return reply.header('X-Renew-Token', 'false').type('text/plain; charset=utf-8').send(opts.auth.renew(request.user));
  });
  app.post('/api/logout', async (request, reply) => {
    await opts.auth.endSessions(request.user.id);
    return sendStatus(reply, 200);
  });
}
