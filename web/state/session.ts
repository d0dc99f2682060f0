import { atom, type createStore } from 'jotai';
import type { PageConfig } from '@contract/page-config';
import * as auth from '../api/auth';
import { HttpError, configureHttp } from '../api/http';
import type { TokenUser } from '../api/types';
import { authCookie, expiredAuthCookie } from '../lib/cookie';
import { decodeToken, msUntilExpiry, type TokenClaims } from '../lib/jwt';
import { expiryLogoutEnabled } from '../lib/page-config';
import { redeemOidcHandover, takeOidcCode } from './oidc-handover';

type Store = ReturnType<typeof createStore>;

const STORAGE_KEY = 'jwt';
// setTimeout fires at once for delays past 2^31-1 ms; longer waits are re-armed in steps.
const MAX_TIMER_MS = 2_147_483_647;

/** The signed-in token, '' when signed out. */
export const jwtAtom = atom('');

function claimsOf(token: string): TokenClaims<TokenUser> | null {
  if (!token) return null;
  try {
    return decodeToken<TokenUser>(token);
  } catch {
    return null;
  }
}

/** The signed-in user, read from the token payload (api.md §2.2), or null. */
export const userAtom = atom<TokenUser | null>((get) => claimsOf(get(jwtAtom))?.user ?? null);

function persist(token: string): void {
  const secure = window.location.protocol === 'https:';
  if (token) {
    localStorage.setItem(STORAGE_KEY, token);
    document.cookie = authCookie(token, secure);
  } else {
    localStorage.removeItem(STORAGE_KEY);
    document.cookie = expiredAuthCookie();
  }
}

/** Keeps a token: in memory, localStorage and the `auth` cookie. Throws if it is malformed. */
export const signInAtom = atom(null, (_get, set, token: string) => {
  decodeToken<TokenUser>(token);
  persist(token);
  set(jwtAtom, token);
});

/** Forgets the token everywhere in this browser. */
export const signOutAtom = atom(null, (_get, set) => {
  persist('');
  set(jwtAtom, '');
});

export interface Credentials {
  username: string;
  password: string;
  recaptcha: string;
  /** The two-factor code, when the server asks for one (beyond.md §4.2). */
  otp?: string;
}

/** POST /api/login, then keeps the token. */
export const loginAtom = atom(null, async (_get, set, c: Credentials) => {
  const token = c.otp ? await auth.loginWithCode({ username: c.username, password: c.password, recaptcha: c.recaptcha, otp: c.otp }) : await auth.login(c.username, c.password, c.recaptcha);
  set(signInAtom, token);
});

/** POST /api/signup, then logs in with the same credentials (product.md §4). */
export const signupAtom = atom(null, async (_get, set, c: Credentials) => {
  await auth.signup(c.username, c.password);
  await set(loginAtom, c);
});

let renewing: Promise<void> | null = null;

async function renewSession(store: Store): Promise<void> {
  renewing ??= auth
    .renew()
    .then((token) => store.set(signInAtom, token))
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

/** Fetches a fresh token for the signed-in user (after their record changed). */
export const renewAtom = atom(null, async (_get, set) => {
  set(signInAtom, await auth.renew());
});

function watchExpiry(store: Store): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    const claims = claimsOf(store.get(jwtAtom));
    if (!claims) return;
    const wait = msUntilExpiry(claims.exp, Date.now());
    if (wait <= 0) store.set(signOutAtom);
    else timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
  };
  store.sub(jwtAtom, arm);
  arm();
}

async function restore(store: Store): Promise<void> {
  const stored = localStorage.getItem(STORAGE_KEY) ?? '';
  const claims = claimsOf(stored);
  if (!claims || msUntilExpiry(claims.exp, Date.now()) <= 0) {
    store.set(signOutAtom);
    return;
  }
  store.set(signInAtom, stored);
  // Renewing checks the stored token with the server; a 401 signs out through the http hook,
  // while a network failure keeps the session for when the server is back.
  await renewSession(store).catch((error: unknown) => {
    if (!(error instanceof HttpError)) throw error;
  });
}

/** Keeps `token` and answers the id of its user. */
function signInFor(store: Store, token: string): number {
  store.set(signInAtom, token);
  return store.get(userAtom)?.id ?? 0;
}

/**
 * Wires web/api to the session and starts it: a stored token is reused and renewed; without a
 * login page (noauth, proxy) the server is asked for a token with empty credentials.
 */
export async function startSession(store: Store, config: PageConfig): Promise<void> {
  configureHttp({
    baseURL: config.BaseURL,
    token: () => store.get(jwtAtom),
    onUnauthorized: () => store.set(signOutAtom),
    onRenewRequested: () => void renewSession(store).catch(() => undefined),
  });
  if (expiryLogoutEnabled(config)) watchExpiry(store);
  // Taken synchronously: without a code, the stored token is restored in this same tick (main.tsx's early listing).
  const oidcCode = config.OidcName ? takeOidcCode() : null;
  if (oidcCode !== null) return redeemOidcHandover(oidcCode, (token) => signInFor(store, token), `${config.BaseURL}/login`);
  if (config.LoginPage) {
    await restore(store);
    return;
  }
  await store.set(loginAtom, { username: '', password: '', recaptcha: '' }).catch(() => undefined);
}
