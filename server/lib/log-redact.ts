/** Query parameters whose values are secrets and never reach a log line (code and state: the OpenID callback). */
const SECRET_PARAMS = /([?&](?:token|auth|password|code|state)=)[^&#]*/gi;

/** The URL as it may be logged: secret query values replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

interface RequestLike {
  method: string;
  url: string;
  ip: string;
  id: string;
}

/** Pino serializers for Fastify's request log: method, redacted URL, client address. */
export const requestSerializers = {
  req(req: RequestLike): Record<string, string> {
    return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
  },
};
