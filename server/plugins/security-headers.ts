import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The CSP every matched route carries (api.md §1.3); the index page sets its own stricter one. */
export const ROUTE_CSP = "default-src 'self'; style-src 'unsafe-inline';";

/**
 * Global response headers of api.md §1.3: responses of matched routes get the CSP and, unless
 * the handler set its own, `Cache-Control: no-cache, no-store, must-revalidate`.
 */
export const securityHeadersPlugin = fp(function securityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 405) return payload;
    const matched = request.routeOptions.url !== undefined;
    if (matched && !reply.hasHeader('content-security-policy')) reply.header('content-security-policy', ROUTE_CSP);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache, no-store, must-revalidate');
    return payload;
  });
}, { name: 'security-headers' });
