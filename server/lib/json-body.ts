import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';

/** Parses JSON text, dropping `__proto__` keys so a later merge cannot pollute prototypes. */
export function parseJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}

/** Decodes a raw request body as JSON; the error says why (for 400 bodies). */
export function decodeJsonBody(raw: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return { ok: false, reason: 'empty request' };
  try {
    return { ok: true, value: parseJson(text) };
  } catch (err) {
    return { ok: false, reason: `failed to decode body: ${(err as Error).message}` };
  }
}

/**
 * Makes the routes of this (encapsulated) plugin read every body as JSON whatever its
 * Content-Type: filebrowser's frontend and scripts send JSON as text/plain or without a type.
 * Undecodable JSON answers 400 with the decoder's reason.
 */
export function acceptJsonOfAnyType(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const decoded = decodeJsonBody(body);
    if (decoded.ok) done(null, decoded.value);
    else done(new AppError('bad_request', decoded.reason), undefined);
  });
}

/** Makes the routes of this (encapsulated) plugin receive every body as a raw Buffer. */
export function acceptRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}
