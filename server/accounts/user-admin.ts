import { AppError } from '../errors';
import { validateRules } from '../rules/rules';
import type { Database, UserDefaults, UserRecord } from '../state/schema';
import type { Store } from '../state/store';
import { ensureHome, resolveScope } from './home';
import { validateAndHash } from './password';
import { adminCount, assertUsernameFree, insertUser, normalizeUser, removeUserRecord } from './records';
import { nextEpoch } from './sessions';
import { effectiveSettings } from './settings-normalize';

/** A user as the CLI describes it: the defaults-shaped fields plus name, password and lock. */
export interface UserSpec {
  username: string;
  password: string;
  fields: UserDefaults;
  lockPassword: boolean;
  /** Bytes (beyond.md §6); 0 or absent: no quota. */
  quota?: number;
}

/** The user named by `ref`: a number is an id, anything else a username (api.md §10.2); 404 otherwise. */
export function findUser(db: Readonly<Database>, ref: string): UserRecord {
  const byId = /^\d+$/.test(ref) ? db.users.find((u) => u.id === Number(ref)) : undefined;
  const user = byId ?? db.users.find((u) => u.username === ref);
  if (!user) throw new AppError('not_found', `no user ${ref}`);
  return user;
}

/**
 * `users add`: validates the password against the settings, derives the home when the scope
 * is empty and createUserDir is on (otherwise the scope normalised), creates it under `root`.
 */
export async function addUser(store: Store, root: string, spec: UserSpec): Promise<UserRecord> {
  const s = effectiveSettings(store.data().settings);
  const hash = await validateAndHash(spec.password, s.minimumPasswordLength);
  if (spec.fields.perm.share && !spec.fields.perm.download) throw new AppError('bad_request', 'permission to share requires permission to download');
  assertUsernameFree(store.data(), spec.username);
  const given = spec.fields.scope;
  const { scope } = resolveScope({ scope: given, username: spec.username, derive: given.trim() === '' && s.createUserDir, basePath: s.userHomeBasePath });
  await ensureHome(root, scope);
  const record = normalizeUser({ ...spec.fields, username: spec.username, password: hash, scope, lockPassword: spec.lockPassword, rules: [], sessionEpoch: 0, ...(spec.quota ? { quota: spec.quota } : {}) });
  return store.update((db) => insertUser(db, record));
}

/** What `users update` changes: a new name and/or password, and a rewrite of the other fields. */
export interface UserChange {
  username?: string;
  password?: string;
  apply: (u: UserRecord) => void;
}

/** `users update`: renames, re-hashes (ending older sessions) and rewrites fields of one user. */
export async function updateUser(store: Store, ref: string, change: UserChange): Promise<UserRecord> {
  const current = findUser(store.data(), ref);
  const next: UserRecord = structuredClone(current);
  change.apply(next);
  if (change.username !== undefined && change.username !== '') next.username = change.username;
  if (change.password !== undefined && change.password !== '') {
    next.password = await validateAndHash(change.password, effectiveSettings(store.data().settings).minimumPasswordLength);
    next.sessionEpoch = nextEpoch(current, Date.now());
  }
  if (next.perm.share && !next.perm.download) throw new AppError('bad_request', 'permission to share requires permission to download');
  validateRules(next.rules);
  return store.update((db) => {
    assertUsernameFree(db, next.username, next.id);
    db.users = db.users.map((u) => (u.id === next.id ? normalizeUser(next) : u));
    return next;
  });
}

/** `users rm`: deletes one user and their shares; the last admin cannot be deleted. */
export async function removeUser(store: Store, ref: string): Promise<UserRecord> {
  const target = findUser(store.data(), ref);
  await store.update((db) => {
    if (target.perm.admin && adminCount(db) <= 1) throw new AppError('forbidden', 'the last administrator cannot be deleted');
    removeUserRecord(db, target.id);
  });
  return target;
}
