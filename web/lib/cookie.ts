/**
 * The `auth` cookie carrying the token for GET requests the browser makes itself (downloads,
 * previews, the shell WebSocket); the server accepts it on GET only (api.md §2.1, §14).
 */
export function authCookie(token: string, secure: boolean): string {
  return `auth=${token}; Path=/; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The same cookie, expired, to end the session in this browser. */
export function expiredAuthCookie(): string {
  return 'auth=; Path=/; SameSite=Strict; Max-Age=0';
}
