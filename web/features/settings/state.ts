import { atom } from 'jotai';
import { updateUser } from '../../api/users';
import { findLocale } from '../../i18n/locales';
import { loginAtom, renewAtom, signOutAtom, userAtom } from '../../state/session';
import { ownThemeAtom } from '../../state/theme';

export interface ProfileChoices {
  locale: string;
  hideDotfiles: boolean;
  singleClick: boolean;
  dateFormat: boolean;
  /** '' = light, 'dark', 'system'; kept in this browser (the API's user has no theme). */
  theme: string;
}

/** Whether going from one locale to the other flips the reading direction (he/ar against the rest). */
export function flipsDirection(from: string | undefined, to: string | undefined): boolean {
  return (findLocale(from ?? '')?.dir ?? 'ltr') !== (findLocale(to ?? '')?.dir ?? 'ltr');
}

/** Reloads the page when a saved locale changes the reading direction (product.md §4). */
export function reloadOnDirectionChange(from: string | undefined, to: string | undefined): void {
  if (flipsDirection(from, to)) window.location.reload();
}

/** Saves the profile choices, then renews the token so the UI (language...) follows them. */
export const saveProfileAtom = atom(null, async (get, set, choices: ProfileChoices) => {
  const user = get(userAtom);
  if (!user) return;
  const { theme, ...fields } = choices;
  set(ownThemeAtom, theme);
  await updateUser({ id: user.id, which: ['locale', 'hideDotfiles', 'singleClick', 'dateFormat'], data: fields });
  await set(renewAtom);
  reloadOnDirectionChange(user.locale, fields.locale);
});

/**
 * After one's own password changed the server has ended every older token (api.md §14): sign in
 * again with the new one so the person stays where they are. With reCAPTCHA on that needs a
 * solved challenge, so the session ends and the login page asks for it.
 */
export const signInAgainAtom = atom(null, async (_get, set, credentials: { username: string; password: string }) => {
  await set(loginAtom, { ...credentials, recaptcha: '' }).catch(() => set(signOutAtom));
});

export interface PasswordChange {
  password: string;
  /** The user's current password, which json auth asks for (api.md §3.2). */
  currentPassword: string;
}

/**
 * Changes the signed-in user's password. The server then ends every older token of the user
 * (api.md §14), this one included, so the session continues by signing in again with the new
 * password: the person stays where they are instead of landing on /login.
 */
export const changePasswordAtom = atom(null, async (get, set, change: PasswordChange) => {
  const user = get(userAtom);
  if (!user) return;
  await updateUser({ id: user.id, which: ['password'], data: { password: change.password }, currentPassword: change.currentPassword });
  await set(signInAgainAtom, { username: user.username, password: change.password });
});
