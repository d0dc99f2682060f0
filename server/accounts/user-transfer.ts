import { AppError } from '../errors';
import { validateRules } from '../rules/rules';
import type { Database, Rule, UserRecord } from '../state/schema';
import { fullPerms, normalizeUser } from './records';

/** One user of filebrowser's `users export` (and ours): the stored record, hash included. */
export type ExportedUser = Omit<UserRecord, 'sessionEpoch'>;

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;

/** `users export`: every user in filebrowser's export format (field order as upstream). */
export function exportUsers(db: Readonly<Database>): ExportedUser[] {
  return [...db.users].sort((a, b) => a.id - b.id).map((u) => ({
    id: u.id, username: u.username, password: u.password, scope: u.scope, locale: u.locale, lockPassword: u.lockPassword,
    viewMode: u.viewMode, singleClick: u.singleClick, redirectAfterCopyMove: u.redirectAfterCopyMove, perm: { ...u.perm },
    commands: [...u.commands], sorting: { ...u.sorting }, rules: structuredClone(u.rules), hideDotfiles: u.hideDotfiles,
    dateFormat: u.dateFormat, aceEditorTheme: u.aceEditorTheme,
    // Ours alone (beyond.md §6): written only when set, so filebrowser's exports round-trip unchanged.
    ...(u.quota ? { quota: u.quota } : {}),
  }));
}

const quotaOf = (v: unknown): { quota?: number } => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? { quota: v } : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const bool = (v: unknown): boolean => v === true;
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Reads one exported user; a missing name or id, or a password that is not a bcrypt hash, is refused. */
function readUser(raw: unknown, index: number): UserRecord {
  if (typeof raw !== 'object' || raw === null) throw new AppError('bad_request', `user ${index} is not an object`);
  const u = raw as Record<string, unknown>;
  const id = u.id;
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1) throw new AppError('bad_request', `user ${index} has no valid id`);
  const username = str(u.username);
  if (username.trim() === '') throw new AppError('bad_request', `user ${index} has no username`);
  if (!BCRYPT.test(str(u.password))) throw new AppError('bad_request', `user ${username}: password is not a bcrypt hash`);
  const rules = (Array.isArray(u.rules) ? u.rules : []) as Rule[];
  try {
    validateRules(rules);
  } catch (err) {
    throw new AppError('bad_request', `user ${username}: ${(err as Error).message}`);
  }
  const sorting = (u.sorting ?? {}) as Record<string, unknown>;
  return normalizeUser({
    id, username, password: str(u.password), scope: str(u.scope), locale: str(u.locale), lockPassword: bool(u.lockPassword),
    viewMode: str(u.viewMode), singleClick: bool(u.singleClick), redirectAfterCopyMove: bool(u.redirectAfterCopyMove),
    perm: fullPerms(u.perm as Partial<UserRecord['perm']>), commands: strings(u.commands), sorting: { by: str(sorting.by), asc: bool(sorting.asc) },
    rules, hideDotfiles: bool(u.hideDotfiles), dateFormat: bool(u.dateFormat), aceEditorTheme: str(u.aceEditorTheme), sessionEpoch: 0,
    ...quotaOf(u.quota),
  });
}

/** Parses and checks an export document (a JSON array of users) before anything is written. */
export function readExportedUsers(doc: unknown): UserRecord[] {
  if (!Array.isArray(doc)) throw new AppError('bad_request', 'the file does not hold a list of users');
  const users = doc.map(readUser);
  const names = new Set<string>();
  const ids = new Set<number>();
  for (const u of users) {
    if (names.has(u.username)) throw new AppError('exists', `user ${u.username} appears twice in the file`);
    if (ids.has(u.id)) throw new AppError('exists', `id ${u.id} appears twice in the file`);
    names.add(u.username);
    ids.add(u.id);
  }
  return users;
}

/**
 * `users import` inside a store.update: with `replace` every existing user goes first; an id
 * already present is an error unless `overwrite`; a name held by another id is always an error.
 * Ids are kept, so shares of a migrated installation keep their owners.
 */
export function importUsers(db: Database, users: readonly UserRecord[], opts: { overwrite: boolean; replace: boolean }): void {
  if (opts.replace) db.users = [];
  for (const user of users) {
    const sameId = db.users.find((u) => u.id === user.id);
    if (sameId && !opts.overwrite) throw new AppError('exists', `user id ${user.id} (${sameId.username}) is already registered; pass --overwrite`);
    const sameName = db.users.find((u) => u.username === user.username && u.id !== user.id);
    if (sameName) throw new AppError('exists', `username ${user.username} belongs to user id ${sameName.id}`);
    db.users = [...db.users.filter((u) => u.id !== user.id), structuredClone(user)];
  }
  db.users.sort((a, b) => a.id - b.id);
  db.nextUserId = Math.max(db.nextUserId, ...db.users.map((u) => u.id + 1));
}
