import type { FastifyInstance } from 'fastify';
import { SettingsInputSchema, SettingsSchema, type SettingsInput } from '../../contract/settings';
import { acceptJsonOfAnyType } from '../../lib/json-body';
import { sendStatus } from '../../lib/send-status';
import { requireAdmin } from '../../plugins/auth';
import type { SettingsService } from './service';

export interface SettingsRoutesOptions {
  settings: SettingsService;
}

/** Signed-in, admin only: GET and PUT /api/settings (api.md §3.3). */
export function settingsRoutes(app: FastifyInstance, opts: SettingsRoutesOptions): void {
  acceptJsonOfAnyType(app);
  app.get('/api/settings', { preHandler: requireAdmin, schema: { response: { 200: SettingsSchema } } }, () => opts.settings.get());
  app.put<{ Body: SettingsInput }>('/api/settings', { preHandler: requireAdmin, schema: { body: SettingsInputSchema } }, async (request, reply) => {
    await opts.settings.replace(request.user, request.body);
    return sendStatus(reply, 200);
  });
}
