import type { UserView } from '../contract/user';
import { AppError } from '../errors';
import type { Database, Permissions, UserDefaults, UserRecord } from '../state/schema';

/** A new user record without an id yet. */
export type NewUser = Omit<UserRecord, 'id'>;

const NO_PERMS: Permissions = { admin: false, execute: false, create: false, rename: false, modify: false, delete: false, share: false, download: false };

/** Every permission flag, missing ones false. */
export function fullPerms(p: Partial<Permissions> | undefined): Permissions {
  return { ...NO_PERMS, ...(p ?? {}) };
}

/** A user built from the settings defaults (api.md §7), with the given name and password hash. */
export function userFromDefaults(defaults: UserDefaults, username: string, passwordHash: string): NewUser {
  return normalizeUser({
    username,
    password: passwordHash,
    scope: defaults.scope,
    locale: defaults.locale,
    lockPassword: false,
    viewMode: defaults.viewMode,
    singleClick: defaults.singleClick,
    redirectAfterCopyMove: defaults.redirectAfterCopyMove,
    perm: fullPerms(defaults.perm),
    commands: [...(defaults.commands ?? [])],
    sorting: { by: defaults.sorting?.by ?? '', asc: defaults.sorting?.asc ?? false },
    rules: [],
    hideDotfiles: defaults.hideDotfiles,
    dateFormat: defaults.dateFormat,
    aceEditorTheme: defaults.aceEditorTheme ?? '',
    sessionEpoch: 0,
  });
}

/** The normalisation of every save (api.md §3.2): empty view mode, sort key and lists defaulted. */
export function normalizeUser<T extends NewUser>(u: T): T {
  return {
    ...u,
    viewMode: u.viewMode || 'list',
    commands: u.commands ?? [],
    sorting: { by: u.sorting?.by || 'name', asc: u.sorting?.asc ?? false },
    rules: u.rules ?? [],
    perm: fullPerms(u.perm),
  };
}

/** Provisioned users (signup, proxy, hook) never get admin, execute or commands (api.md §11). */
export function withoutPrivileges<T extends NewUser>(u: T): T {
  return { ...u, perm: { ...u.perm, admin: false, execute: false }, commands: [] };
}

/** The wire form of a user: never the hash, and without the scope for non-admin callers. */
export function userView(u: UserRecord, hideScope = false): UserView {
  return {
    id: u.id,
    username: u.username,
    password: '',
    scope: hideScope ? '' : u.scope,
    locale: u.locale,
    lockPassword: u.lockPassword,
    viewMode: u.viewMode,
    singleClick: u.singleClick,
    redirectAfterCopyMove: u.redirectAfterCopyMove,
    perm: { ...u.perm },
    commands: [...u.commands],
    sorting: { ...u.sorting },
    rules: u.rules.map((r) => ({ ...r })),
    hideDotfiles: u.hideDotfiles,
    dateFormat: u.dateFormat,
    aceEditorTheme: u.aceEditorTheme,
    quota: u.quota ?? 0,
  };
}

/** Folds a scope for the case-insensitive collision check of api.md §8.2. */
function scopeKey(scope: string): string {
  return scope.toLowerCase();
}

/** Throws 409 when another user already owns `scope` (compared case-insensitively). */
export function assertScopeFree(db: Database, scope: string, exceptId?: number): void {
  const key = scopeKey(scope);
  if (db.users.some((u) => u.id !== exceptId && scopeKey(u.scope) === key)) {
    throw new AppError('exists', `home directory ${scope} belongs to another user`);
  }
}

/** Throws 400 for an empty username and 409 when another user has the name. */
export function assertUsernameFree(db: Database, username: string, exceptId?: number): void {
  if (username.trim() === '') throw new AppError('bad_request', 'username is empty');
  if (db.users.some((u) => u.id !== exceptId && u.username === username)) {
    throw new AppError('exists', `username ${username} is taken`);
  }
}

/**
 * Adds `user` inside a store.update: unique name, and with `uniqueScope` the atomic home
 * collision check of provisioned users. Ids only grow; a client-sent id is never honoured.
 */
export function insertUser(db: Database, user: NewUser, opts: { uniqueScope?: boolean } = {}): UserRecord {
  assertUsernameFree(db, user.username);
  if (opts.uniqueScope) assertScopeFree(db, user.scope);
  const id = Math.max(db.nextUserId, ...db.users.map((u) => u.id + 1));
  const record: UserRecord = { ...normalizeUser(user), id };
  db.users.push(record);
  db.nextUserId = id + 1;
  return record;
}

/** The user with `id`, or 404. */
export function userById(db: Readonly<Database>, id: number): UserRecord {
  const u = db.users.find((x) => x.id === id);
  if (!u) throw new AppError('not_found');
  return u;
}

/** The number of admins, for the sole-admin protection of api.md §8.5. */
export function adminCount(db: Readonly<Database>): number {
  return db.users.filter((u) => u.perm.admin).length;
}

/**
 * Removes user `id` and their share links inside a store.update. Unlike filebrowser, which keeps
 * them (api.md §3.2), the links go too: they already answer 404 and would be listed ownerless.
 */
export function removeUserRecord(db: Database, id: number): void {
  db.users = db.users.filter((u) => u.id !== id);
  db.shares = db.shares.filter((s) => s.userID !== id);
  // A user's API tokens and two-factor record die with them (beyond.md §4.1).
  db.tokens = (db.tokens ?? []).filter((t) => t.userId !== id);
  db.totp = (db.totp ?? []).filter((t) => t.userId !== id);
}
