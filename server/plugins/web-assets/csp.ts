/** The reCAPTCHA loader on these hosts pulls its code from www.gstatic.com. */
const GOOGLE_HOSTS = new Set(['https://www.google.com', 'https://www.recaptcha.net']);

function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The strict Content-Security-Policy of the index page (api.md §14): scripts from the app's own
 * origin and the inline page configuration by nonce only, plus the reCAPTCHA host (script and
 * frame) when it is configured; no plugins, no foreign base URL, framed only by the same origin.
 */
export function indexCsp(nonce: string, recaptchaHost?: string): string {
  const extra: string[] = [];
  const origin = recaptchaHost ? originOf(recaptchaHost) : undefined;
  if (origin) {
    extra.push(origin);
    if (GOOGLE_HOSTS.has(origin)) extra.push('https://www.gstatic.com');
  }
  const hosts = extra.length ? ` ${extra.join(' ')}` : '';
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${hosts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    `frame-src 'self'${hosts}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}
