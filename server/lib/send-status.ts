import type { FastifyReply } from 'fastify';
import { statusBody, statusBodyHeaders } from './status-body';

/** Ends a request with a status-only body such as "200 OK\n" or "202 Accepted\n" (api.md §1.6). */
export function sendStatus(reply: FastifyReply, status: number): FastifyReply {
  if (status === 204) return reply.code(204).send();
  return reply.code(status).headers(statusBodyHeaders).send(statusBody(status));
}
