import type { OidcLogoutReply } from '@contract/oidc';
import { apiPaths } from '../paths';
import { apiUrl, fetchJson, fetchText, jsonBody } from './http';

/** The address that starts an OpenID sign-in (the browser goes there, it is not fetched). */
export function oidcLoginUrl(redirect: string): string {
  return apiUrl(apiPaths.oidcLogin(redirect));
}

/** POST /api/auth/oidc/token: filemgr's token for the one-time code of the sign-in callback. */
export async function redeemOidcCode(code: string): Promise<string> {
  return fetchText(apiPaths.oidcToken, jsonBody({ code }));
}

/** POST /api/auth/oidc/logout: ends the sessions; the provider's end-session address or ''. */
export async function oidcLogout(): Promise<string> {
  return (await fetchJson<OidcLogoutReply>(apiPaths.oidcLogout, { method: 'POST' })).url;
}
