import { randomBytes } from 'node:crypto';
import type { OidcConfig } from '../config';
import type { UserRecord } from '../state/schema';
import type { Store } from '../state/store';
import { hashPassword } from './password';
import { provisionUser } from './provision';
import { userFromDefaults, withoutPrivileges } from './records';
import type { SessionTracker } from './sessions';

/** Why verified claims name no filemgr user. */
export type OidcUserRefusal = 'account' | 'unknownUser';

export type OidcUserResult = { ok: true; user: UserRecord } | { ok: false; reason: OidcUserRefusal; detail: string };

/** What a sign-in needs from the accounts layer. */
export interface OidcUserDeps {
  store: Store;
  root: string;
  sessions: SessionTracker;
  now: () => number;
}

/** The username claim: a non-empty string of printable characters, at most 255 of them. */
export function usernameOf(claims: Readonly<Record<string, unknown>>, claim: string): string | undefined {
  const value = claims[claim];
  if (typeof value !== 'string') return undefined;
  const name = value.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return name !== '' && name.length <= 255 && !/[\u0000-\u001f\u007f]/.test(name) ? name : undefined;
}

/** The groups claim as a list: an array of strings, or one string (some providers send one group so). */
export function groupsOf(claims: Readonly<Record<string, unknown>>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}

async function createUser(deps: OidcUserDeps, username: string): Promise<UserRecord> {
  // A password nobody knows: the provider stays the only way in for this user.
  const hash = await hashPassword(randomBytes(22).toString('base64url'));
  const user = withoutPrivileges({ ...userFromDefaults(deps.store.data().settings.defaults, username, hash), lockPassword: true });
  return provisionUser(deps.store, deps.root, { user });
}

/** Sets admin to `admin` when it differs; the change reaches open sessions through the renew hint. */
async function syncAdmin(deps: OidcUserDeps, user: UserRecord, admin: boolean): Promise<UserRecord> {
  if (user.perm.admin === admin) return user;
  const updated = await deps.store.update((db) => {
    const record = db.users.find((u) => u.id === user.id);
    if (record) record.perm = { ...record.perm, admin };
    return structuredClone(record);
  });
  deps.sessions.markUpdated(user.id, deps.now());
  return updated ?? user;
}

/**
 * The filemgr user of verified OpenID claims (beyond.md §4.3): matched by the username claim,
 * created with the default settings (never admin or execute by default, api.md §11) when
 * --oidc.createUsers allows, and with --oidc.adminGroup, admin exactly when the groups claim
 * lists that group, at every sign-in.
 */
export async function oidcUser(deps: OidcUserDeps, claims: Readonly<Record<string, unknown>>, config: OidcConfig): Promise<OidcUserResult> {
  const username = usernameOf(claims, config.usernameClaim);
  if (username === undefined) return { ok: false, reason: 'account', detail: `the claim ${config.usernameClaim} is missing or not a usable name` };
  let user = deps.store.data().users.find((u) => u.username === username);
  if (!user) {
    if (!config.createUsers) return { ok: false, reason: 'unknownUser', detail: `no user ${username} and --oidc.createUsers is false` };
    user = await createUser(deps, username);
  }
  if (config.adminGroup !== '') user = await syncAdmin(deps, user, groupsOf(claims, config.groupsClaim).includes(config.adminGroup));
  return { ok: true, user };
}
