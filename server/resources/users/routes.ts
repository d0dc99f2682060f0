import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { UserDeleteSchema, UserEnvelopeSchema, UserListSchema, UserSchema } from '../../contract/user';
import { acceptJsonOfAnyType } from '../../lib/json-body';
import { sendStatus } from '../../lib/send-status';
import { requireAdmin } from '../../plugins/auth';
import type { UsersService } from './service';

export interface UsersRoutesOptions {
  users: UsersService;
}

// Only digits name a user (api.md §0); anything else is not this route.
const BY_ID = '/api/users/:id(^\\d+$)';
type ById = { Params: { id: string } };

/** Signed-in: /api/users (admin) and /api/users/{id} (self or admin), api.md §3.2. */
export function usersRoutes(app: FastifyInstance, opts: UsersRoutesOptions): void {
  const { users } = opts;
  acceptJsonOfAnyType(app);
  app.get('/api/users', { preHandler: requireAdmin, schema: { response: { 200: UserListSchema } } }, () => users.list());
  app.post<{ Body: Static<typeof UserEnvelopeSchema> }>('/api/users', { preHandler: requireAdmin, schema: { body: UserEnvelopeSchema } }, async (request, reply) => {
    const id = await users.create(request.user, request.body);
    // Not prefixed by the base URL, as upstream (api.md §3.2).
    return sendStatus(reply.header('location', `/settings/users/${id}`), 201);
  });
  app.get<ById>(BY_ID, { schema: { response: { 200: UserSchema } } }, (request) => users.get(request.user, Number(request.params.id)));
  app.put<ById & { Body: Static<typeof UserEnvelopeSchema> }>(BY_ID, { schema: { body: UserEnvelopeSchema } }, async (request, reply) => {
    await users.update(request.user, Number(request.params.id), request.body);
    return sendStatus(reply, 200);
  });
  app.delete<ById & { Body: Static<typeof UserDeleteSchema> }>(BY_ID, { schema: { body: UserDeleteSchema } }, async (request, reply) => {
    await users.remove(request.user, Number(request.params.id), request.body);
    return sendStatus(reply, 200);
  });
  app.post<ById>(`${BY_ID}/logout`, { preHandler: requireAdmin }, async (request, reply) => {
    await users.endSessions(Number(request.params.id));
    return sendStatus(reply, 200);
  });
}
