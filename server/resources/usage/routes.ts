import type { FastifyInstance } from 'fastify';
import { DiskUsageSchema } from '../../contract/resource';
import type { UsageService } from './service';

/** GET /api/usage{p}: disk usage of the volume holding a user path. */
export function usageRoutes(app: FastifyInstance, opts: { usage: UsageService }): void {
  app.get('/api/usage', (_request, reply) => reply.redirect('/api/usage/', 301));
  app.get('/api/usage/*', { schema: { response: { 200: DiskUsageSchema } } }, (request) => {
    const { '*': path = '' } = request.params as { '*'?: string };
    return opts.usage.usage(request.user, path);
  });
}
