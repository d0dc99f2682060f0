import { AppError } from '../errors';

const VERIFY_TIMEOUT_MS = 10_000;

/**
 * Verifies a reCAPTCHA response with `<host>/recaptcha/api/siteverify` (api.md §2.4): a non-200
 * answer or `success: false` refuses the login (403); an unreachable or garbled verifier is a
 * server error (500).
 */
export async function verifyRecaptcha(cfg: { host: string; secret: string }, response: string): Promise<void> {
  const url = `${cfg.host.replace(/\/+$/, '')}/recaptcha/api/siteverify`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: cfg.secret, response }).toString(),
      signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
  } catch (err) {
    throw new AppError('internal', `recaptcha verification failed: ${(err as Error).message}`);
  }
  if (res.status !== 200) throw new AppError('forbidden');
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new AppError('internal', 'recaptcha verification answered invalid JSON');
  }
  if (typeof body !== 'object' || body === null || (body as { success?: unknown }).success !== true) throw new AppError('forbidden');
}
