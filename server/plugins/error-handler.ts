import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isAppError } from '../errors';
import { statusBody, statusBodyHeaders } from '../lib/status-body';

/**
 * The only code that writes error responses, in the wire format of api.md §1.6. Expected
 * failures are AppErrors; Fastify's own client errors (bad JSON, body too large, schema
 * validation) keep their 4xx status; anything else is a 500 logged with the request id and
 * sent without detail.
 */
export const errorHandlerPlugin = fp(function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(err)) {
      return sendError(reply, { status: err.status, message: err.hasMessage ? err.message : undefined, headers: err.headers });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ code: err.code, msg: err.message }, 'rejected request');
      return sendError(reply, { status, message: clientMessage(err), headers: {} });
    }
    request.log.error({ err }, 'unexpected error');
    return sendError(reply, { status: 500, message: undefined, headers: {} });
  });
}, { name: 'error-handler' });

interface ErrorReply {
  status: number;
  message: string | undefined;
  headers: Readonly<Record<string, string>>;
}

function sendError(reply: FastifyReply, e: ErrorReply): FastifyReply {
  if (reply.sent) return reply;
  return reply.code(e.status).headers({ ...statusBodyHeaders, ...e.headers }).send(statusBody(e.status, e.message));
}

function clientMessage(err: FastifyError): string {
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return 'unsupported content type';
  if (err.validation) return `invalid request: ${err.message}`;
  return err.message;
}
