import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance } from 'fastify';
import { tokenCodec, type TokenClaims, type TokenCodec } from '../accounts/token';
import type { UserRecord } from '../state/schema';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    /** What a session token carries (api.md §2.2). */
    payload: TokenClaims;
    /** The signed-in user, reloaded from the state for each request (set by plugins/auth.ts). */
    user: UserRecord;
  }
}

/**
 * Registers @fastify/jwt on the whole app (it also declares `request.user`, null until the auth
 * plugin sets it) and returns the token codec built on it. The settings key given here is only
 * the plugin's default: the codec passes the current key on every call.
 */
export async function registerTokens(app: FastifyInstance, key: string): Promise<TokenCodec> {
  await app.register(fastifyJwt, { secret: Buffer.from(key, 'base64') });
  return tokenCodec(app.jwt);
}
