import type { FastifyInstance } from 'fastify';
import { CreatedTokenSchema, NewTokenSchema, TokenListSchema, type NewTokenBody } from '../../contract/tokens';
import { acceptJsonOfAnyType } from '../../lib/json-body';
import { sendStatus } from '../../lib/send-status';
import { requireAdmin, requireSession } from '../../plugins/auth';
import type { TokensService } from './service';

export interface TokensRoutesOptions {
  tokens: TokensService;
}

const USER = '/api/users/:id(^\\d+$)/tokens';
type ById = { Params: { id: string } };
type ByTokenId = { Params: { id: string; tid: string } };

/** Signed-in: /api/tokens (one's own) and, for admins, /api/users/{id}/tokens[/{tid}] (beyond.md §4.1). */
export function tokensRoutes(app: FastifyInstance, opts: TokensRoutesOptions): void {
  const { tokens } = opts;
  acceptJsonOfAnyType(app);
  app.get('/api/tokens', { schema: { response: { 200: TokenListSchema } } }, (request) => tokens.list(request.user));
  // A token never mints another: a leaked one must not outlive its own expiry or revocation.
  app.post<{ Body: NewTokenBody }>('/api/tokens', { preHandler: requireSession, schema: { body: NewTokenSchema, response: { 201: CreatedTokenSchema } } }, async (request, reply) => {
    return reply.code(201).send(await tokens.create(request.user, request.body));
  });
  app.delete<{ Params: { id: string } }>('/api/tokens/:id', async (request, reply) => {
    await tokens.revoke(request.user, request.params.id);
    return sendStatus(reply, 200);
  });
  app.get<ById>(USER, { preHandler: requireAdmin, schema: { response: { 200: TokenListSchema } } }, (request) => tokens.listFor(Number(request.params.id)));
  app.delete<ByTokenId>(`${USER}/:tid`, { preHandler: requireAdmin }, async (request, reply) => {
    await tokens.revokeFor(Number(request.params.id), request.params.tid);
    return sendStatus(reply, 200);
  });
}
