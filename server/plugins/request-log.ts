import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Routes whose requests are routine enough to log at debug only: the web app's files and the
 * token renewal every open tab sends. At the default level (info) they leave no line.
 */
const QUIET_ROUTES = new Set(['/static/*', '/api/renew']);

/** Whether a request is logged at debug rather than info. */
export function isQuietRequest(request: FastifyRequest): boolean {
  return QUIET_ROUTES.has(request.routeOptions.url ?? '');
}

/**
 * One log line per request, written when the response is done: method, redacted URL and client
 * address (the req serializer), status and time in milliseconds. Fastify's "incoming request"
 * line is dropped; a request that failed while streaming its response logs at error.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {
    // The completion line carries everything the incoming line said.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: { statusCode: reply.statusCode }, responseTime: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) request.log.error({ ...line, err: error }, 'request errored');
    else if (isQuietRequest(request)) request.log.debug(line, 'request completed');
    else request.log.info(line, 'request completed');
  }
}
