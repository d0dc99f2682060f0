import { atom } from 'jotai';
import { totpStatus } from '../api/totp';

/**
 * After a sign-in: whether the server requires two-factor sign-in (global `requireTotp`) and the
 * user has not set it up yet, so the app sends them to its enrolment (beyond.md §4.2). A server
 * that cannot say (an older one, a network hiccup) never blocks the sign-in.
 */
export const enrolmentNeededAtom = atom(null, async (): Promise<boolean> => {
  try {
    const status = await totpStatus();
    return status.required && !status.enabled;
  } catch {
    return false;
  }
});
