import type { RecoveryCodes, TotpEnrolment, TotpOffBody, TotpStatus } from '@contract/totp';
import { apiPaths } from '../paths';
import { exchange, fetchJson, jsonBody } from './http';

/** GET /api/totp: whether the caller has two-factor sign-in on, and whether it is required (beyond.md §4.2). */
export async function totpStatus(): Promise<TotpStatus> {
  return fetchJson<TotpStatus>(apiPaths.totp);
}

/** POST /api/totp: starts enrolment; the secret and its otpauth:// address. */
export async function startTotp(): Promise<TotpEnrolment> {
  return fetchJson<TotpEnrolment>(apiPaths.totp, { method: 'POST' });
}

/** POST /api/totp/confirm: turns it on with a first code; the ten recovery codes. */
export async function confirmTotp(code: string): Promise<string[]> {
  return (await fetchJson<RecoveryCodes>(apiPaths.totpConfirm, jsonBody({ code }))).recoveryCodes;
}

/** DELETE /api/totp with a current code (or recovery code) or the current password. */
export async function disableTotp(body: TotpOffBody): Promise<void> {
  await exchange(apiPaths.totp, jsonBody(body, 'DELETE'));
}
