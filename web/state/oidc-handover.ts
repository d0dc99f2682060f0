import { redeemOidcCode } from '../api/oidc';

/** Remembers, per browser, which user signed in through OpenID (their logout also ends the provider's session). */
export const OIDC_USER_KEY = 'filemgr.oidcUser';

/**
 * The one-time code the OpenID callback put in the URL fragment (`#oidc=<code>`), taken out of
 * the address bar at once (history.replaceState), so neither a reload nor the history holds it.
 */
export function takeOidcCode(): string | null {
  const match = /^#oidc=([\w-]+)$/.exec(window.location.hash);
  if (!match?.[1]) return null;
  history.replaceState(history.state, '', `${window.location.pathname}${window.location.search}`);
  return match[1];
}

/**
 * Ends an OpenID sign-in in the app (beyond.md §4.3): redeems the fragment's code once for
 * filemgr's token and hands it to `signIn` (which answers the user's id). A code that no longer
 * works sends the app to the login page with the reason.
 */
export async function redeemOidcHandover(code: string, signIn: (token: string) => number, loginPath: string): Promise<void> {
  try {
    const userId = signIn(await redeemOidcCode(code));
    localStorage.setItem(OIDC_USER_KEY, String(userId));
  } catch {
    history.replaceState(history.state, '', `${loginPath}?oidc_error=handover`);
  }
}
