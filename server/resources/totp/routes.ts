import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RecoveryCodesSchema, TotpCodeSchema, TotpEnrolmentSchema, TotpOffSchema, TotpResetSchema, TotpStatusSchema } from '../../contract/totp';
import type { Static } from '@sinclair/typebox';
import { acceptJsonOfAnyType } from '../../lib/json-body';
import { sendStatus } from '../../lib/send-status';
import { requireAdmin, requireSession } from '../../plugins/auth';
import type { TotpCaller, TotpService } from './service';

export interface TotpRoutesOptions {
  totp: TotpService;
  /** The client address per `--trustedProxy` (throttling key). */
  addressOf: (request: FastifyRequest) => string;
}

type ById = { Params: { id: string } };

/** Signed-in: /api/totp (one's own two-factor sign-in) and the admin's DELETE /api/users/{id}/totp (beyond.md §4.2). */
export function totpRoutes(app: FastifyInstance, opts: TotpRoutesOptions): void {
  const { totp } = opts;
  const caller = (request: FastifyRequest): TotpCaller => ({ user: request.user, address: opts.addressOf(request) });
  acceptJsonOfAnyType(app);
  app.get('/api/totp', { schema: { response: { 200: TotpStatusSchema } } }, (request) => totp.status(request.user));
  // An API token never changes the second factor of its owner: only a session does.
  const session = { preHandler: requireSession };
  app.post('/api/totp', { ...session, schema: { response: { 200: TotpEnrolmentSchema } } }, (request) => totp.start(request.user));
  app.post<{ Body: Static<typeof TotpCodeSchema> }>('/api/totp/confirm', { ...session, schema: { body: TotpCodeSchema, response: { 200: RecoveryCodesSchema } } }, async (request) => {
    return { recoveryCodes: await totp.confirm(caller(request), request.body.code) };
  });
  app.delete<{ Body: Static<typeof TotpOffSchema> | undefined }>('/api/totp', { ...session, schema: { body: TotpOffSchema } }, async (request, reply) => {
    await totp.disable(caller(request), request.body);
    return sendStatus(reply, 200);
  });
  app.delete<ById & { Body: Static<typeof TotpResetSchema> | undefined }>('/api/users/:id(^\\d+$)/totp', { preHandler: [requireSession, requireAdmin], schema: { body: TotpResetSchema } }, async (request, reply) => {
    await totp.reset(caller(request), { userId: Number(request.params.id), currentPassword: request.body?.current_password ?? '' });
    return sendStatus(reply, 200);
  });
}
