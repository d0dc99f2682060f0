import type { FastifyInstance } from 'fastify';

/** GET|any /health: liveness for monitors and the service manager (api.md §3.1). */
export function healthRoutes(app: FastifyInstance): void {
  app.all('/health', (_request, reply) => reply.type('text/plain; charset=utf-8').send('{"status":"OK"}'));
}
