import { apiPaths } from '../paths';
import { fetchText, jsonBody, exchange } from './http';

/** POST /api/login: the signed token for these credentials (empty ones in noauth/proxy mode). */
export async function login(username: string, password: string, recaptcha: string): Promise<string> {
  return fetchText(apiPaths.login, jsonBody({ username, password, recaptcha }));
}

/** POST /api/login with the two-factor code the server asked for (beyond.md §4.2). */
export async function loginWithCode(credentials: { username: string; password: string; recaptcha: string; otp: string }): Promise<string> {
  return fetchText(apiPaths.login, jsonBody(credentials));
}

/** POST /api/signup: creates the account; the caller logs in afterwards (api.md §2.8). */
export async function signup(username: string, password: string): Promise<void> {
  await exchange(apiPaths.signup, jsonBody({ username, password }));
}

/** POST /api/renew with the current token: a fresh token for the same user. */
export async function renew(): Promise<string> {
  return fetchText(apiPaths.renew, { method: 'POST' });
}
