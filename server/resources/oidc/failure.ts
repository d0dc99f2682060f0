/**
 * Why an OpenID sign-in failed; the login page shows a message per reason (web `oidc.errors.*`):
 * - `state`: no flow cookie, an expired one, or a `state` that is not this browser's (login CSRF);
 * - `denied`: the provider answered with an error (the user cancelled, the client is refused);
 * - `code`: the token endpoint refused the code (replayed, expired, PKCE mismatch);
 * - `token`: the ID token failed verification (signature, iss, aud, exp, nonce);
 * - `unavailable`: the provider cannot be reached or discovered;
 * - `account`: the username claim is missing or not a usable name;
 * - `unknownUser`: no such user and --oidc.createUsers=false;
 * - `handover`: the one-time sign-in code is unknown, used or expired;
 * - `throttled`: too many failed sign-ins from this address (api.md §14).
 */
export type OidcReason = 'state' | 'denied' | 'code' | 'token' | 'unavailable' | 'account' | 'unknownUser' | 'handover' | 'throttled';

/** A failed OpenID sign-in: `reason` reaches the browser, `detail` only the log. */
export class OidcFailure extends Error {
  constructor(readonly reason: OidcReason, readonly detail: string, cause?: unknown) {
    super(`OpenID sign-in failed (${reason}): ${detail}`, cause === undefined ? undefined : { cause });
    this.name = 'OidcFailure';
  }
}
