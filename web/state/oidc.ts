import { atom } from 'jotai';
import { oidcLoginUrl, oidcLogout } from '../api/oidc';
import { configAtom } from './config';
import { OIDC_USER_KEY } from './oidc-handover';
import { signOutAtom, userAtom } from './session';

/** Whether the signed-in user came in through OpenID in this browser (then logout goes through the provider too). */
export const signedInWithOidcAtom = atom((get) => {
  const user = get(userAtom);
  return get(configAtom).OidcName !== '' && user !== null && localStorage.getItem(OIDC_USER_KEY) === String(user.id);
});

/** Starts an OpenID sign-in: the browser leaves for the provider, and comes back at `redirect`. */
export const startOidcSignInAtom = atom(null, (_get, _set, redirect: string) => {
  window.location.assign(oidcLoginUrl(redirect));
});

/**
 * OpenID logout (beyond.md §4.3): ends the filemgr sessions, forgets the token, and sends the
 * browser to the provider's end-session page when it has one (it comes back to `loginUrl`).
 */
export const oidcLogoutAtom = atom(null, async (_get, set, loginUrl: string) => {
  const url = await oidcLogout().catch(() => '');
  localStorage.removeItem(OIDC_USER_KEY);
  set(signOutAtom);
  window.location.assign(url || loginUrl);
});
