import type { TotpEnrolment, TotpOffBody, TotpStatus } from '@contract/totp';
import { atom } from 'jotai';
import { confirmTotp, disableTotp, startTotp, totpStatus } from '../../api/totp';

const totpVersionAtom = atom(0);

/** Whether the signed-in user has two-factor sign-in on, and whether the server requires it. */
export const totpStatusAtom = atom(async (get): Promise<TotpStatus> => {
  get(totpVersionAtom);
  return totpStatus();
});

/** Starts enrolment: a new secret (a restart replaces an unfinished one). */
export const startTotpAtom = atom(null, async (): Promise<TotpEnrolment> => startTotp());

/** Turns it on with a first code; resolves with the ten recovery codes, shown once. */
export const confirmTotpAtom = atom(null, async (_get, set, code: string): Promise<string[]> => {
  const codes = await confirmTotp(code);
  set(totpVersionAtom, (v) => v + 1);
  return codes;
});

/** Turns it off with a code or the current password. */
export const disableTotpAtom = atom(null, async (_get, set, body: TotpOffBody) => {
  await disableTotp(body);
  set(totpVersionAtom, (v) => v + 1);
});
