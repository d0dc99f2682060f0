import type { UserDeleteBody, UserEnvelope, UserInput, UserView } from '../../contract/user';
import { ensureHome, resolveScope } from '../../accounts/home';
import { validateAndHash, verifyPassword } from '../../accounts/password';
import { adminCount, assertUsernameFree, fullPerms, insertUser, normalizeUser, removeUserRecord, userById, userView, type NewUser } from '../../accounts/records';
import { endSessions, nextEpoch, type SessionTracker } from '../../accounts/sessions';
import { effectiveSettings } from '../../accounts/settings-normalize';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { validateRules } from '../../rules/rules';
import type { Settings, UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { ALL_FIELDS, ADMIN_ONLY_FIELDS, applyFields, names, needsCurrentPassword, resolveFields, type UserField } from './fields';

export interface UsersServiceDeps {
  store: Store;
  config: Pick<ServerConfig, 'root'>;
  sessions: SessionTracker;
  now?: () => number;
}

interface Ctx {
  store: Store;
  root: string;
  sessions: SessionTracker;
  now: () => number;
  settings: () => Settings;
}

/** The caller may act on user `id` only as that user or as an admin (403). */
function assertSelfOrAdmin(caller: UserRecord, id: number): void {
  if (caller.id !== id && !caller.perm.admin) throw new AppError('forbidden');
}

/** The envelope's `data` after the `what` check: 400 `invalid data type`, 400 when `data` is missing. */
function envelopeData(env: UserEnvelope | undefined): { data: UserInput; which: string[] } {
  if (!env || typeof env !== 'object') throw new AppError('bad_request', 'empty request');
  if (env.what !== 'user') throw new AppError('bad_request', 'invalid data type');
  if (!env.data) throw new AppError('bad_request', 'missing data');
  return { data: env.data, which: env.which ?? [] };
}

function assertShareNeedsDownload(perm: UserInput['perm']): void {
  if (perm?.share && !perm.download) throw new AppError('bad_request', 'permission to share requires permission to download');
}

/** A record built from `data` for POST or `which: ["all"]`: missing fields are zero values. */
function recordFromData(data: UserInput, passwordHash: string, scope: string): NewUser {
  const { id: _id, ...rest } = applyFields({ id: 0, password: '', sessionEpoch: 0 } as UserRecord, data, ALL_FIELDS);
  return normalizeUser({ ...rest, perm: fullPerms(data.perm), password: passwordHash, scope, sessionEpoch: 0 });
}

/** Under json auth the caller proves who they are with their current password (400 otherwise). */
async function checkCurrentPassword(ctx: Ctx, caller: UserRecord, given: string | undefined): Promise<void> {
  if ((ctx.store.data().settings.authMethod || 'json') !== 'json') return;
  const stored = ctx.store.data().users.find((u) => u.id === caller.id)?.password ?? '';
  if (!(await verifyPassword(given ?? '', stored))) throw new AppError('bad_request', 'the current password is incorrect');
}

/** Saves `next` in place of its record: unique non-empty name, renew hint for older tokens. */
async function save(ctx: Ctx, next: UserRecord): Promise<void> {
  const moved = await ctx.store.update((db) => {
    const i = db.users.findIndex((u) => u.id === next.id);
    if (i < 0) throw new AppError('not_found');
    assertUsernameFree(db, next.username, next.id);
    const before = db.users[i]?.sessionEpoch;
    db.users[i] = normalizeUser(next);
    return before !== next.sessionEpoch;
  });
  ctx.sessions.markUpdated(next.id, ctx.now());
  // A new password ended older sessions: every instance hears it (beyond.md §10).
  if (moved) await ctx.sessions.revoked(next.id, next.sessionEpoch);
}

async function create(ctx: Ctx, caller: UserRecord, env: UserEnvelope | undefined): Promise<number> {
  const { data, which } = envelopeData(env);
  await checkCurrentPassword(ctx, caller, env?.current_password);
  if (which.length > 0) throw new AppError('bad_request', 'which must be empty when creating a user');
  const s = ctx.settings();
  const hash = await validateAndHash(data.password ?? '', s.minimumPasswordLength);
  assertShareNeedsDownload(data.perm);
  if (data.rules) validateRules(data.rules);
  const username = data.username ?? '';
  assertUsernameFree(ctx.store.data(), username);
  const given = data.scope ?? '';
  const { scope } = resolveScope({ scope: given, username, derive: given.trim() === '' && s.createUserDir, basePath: s.userHomeBasePath });
  await ensureHome(ctx.root, scope);
  const user = await ctx.store.update((db) => insertUser(db, recordFromData({ ...data, username }, hash, scope)));
  return user.id;
}

async function replaceWhole(ctx: Ctx, caller: UserRecord, req: { current: UserRecord; data: UserInput }): Promise<UserRecord> {
  const { current, data } = req;
  if (!caller.perm.admin) throw new AppError('forbidden');
  if (data.rules) validateRules(data.rules);
  const changed = (data.password ?? '') !== '';
  const hash = changed ? await validateAndHash(data.password ?? '', ctx.settings().minimumPasswordLength) : current.password;
  const epoch = changed ? nextEpoch(current, ctx.now()) : current.sessionEpoch;
  // The scope is stored as given (api.md §3.2); the path gate makes it absolute and clean.
  return { ...recordFromData(data, hash, data.scope ?? ''), id: current.id, sessionEpoch: epoch };
}

async function writeFields(ctx: Ctx, caller: UserRecord, req: { current: UserRecord; data: UserInput; fields: UserField[] }): Promise<UserRecord> {
  const { current, data, fields } = req;
  if (!caller.perm.admin && fields.some((f) => ADMIN_ONLY_FIELDS.has(f))) throw new AppError('forbidden');
  if (fields.includes('rules') && data.rules) validateRules(data.rules);
  const next = applyFields(current, data, fields);
  if (!fields.includes('password')) return next;
  if (!caller.perm.admin && caller.lockPassword) throw new AppError('forbidden');
  next.password = await validateAndHash(data.password ?? '', ctx.settings().minimumPasswordLength);
  // A new password ends every older session (api.md §14).
  next.sessionEpoch = nextEpoch(current, ctx.now());
  return next;
}

async function update(ctx: Ctx, caller: UserRecord, req: { id: number; env: UserEnvelope | undefined }): Promise<void> {
  const { id } = req;
  assertSelfOrAdmin(caller, id);
  const { data, which } = envelopeData(req.env);
  if (needsCurrentPassword(which)) await checkCurrentPassword(ctx, caller, req.env?.current_password);
  if (data.id !== id) throw new AppError('bad_request', 'the user id does not match the URL');
  if (names(which, 'perm') || names(which, 'all')) assertShareNeedsDownload(data.perm);
  const current = userById(ctx.store.data(), id);
  const replaceAll = which.length === 0 || (which.length === 1 && names(which, 'all'));
  const next = replaceAll
    ? await replaceWhole(ctx, caller, { current, data })
    : await writeFields(ctx, caller, { current, data, fields: resolveFields(which) });
  await save(ctx, next);
}

async function remove(ctx: Ctx, caller: UserRecord, req: { id: number; body: UserDeleteBody | undefined }): Promise<void> {
  assertSelfOrAdmin(caller, req.id);
  if (!req.body || typeof req.body !== 'object') throw new AppError('bad_request', 'empty request');
  await checkCurrentPassword(ctx, caller, req.body.current_password);
  await deleteUserRecord(ctx.store, req.id);
  ctx.sessions.forget(req.id);
}

/** Deletes user `id` and their shares (404 when missing); the last admin cannot be deleted (403, api.md §8.5). */
export async function deleteUserRecord(store: Store, id: number): Promise<void> {
  await store.update((db) => {
    const target = userById(db, id);
    if (target.perm.admin && adminCount(db) <= 1) throw new AppError('forbidden');
    removeUserRecord(db, id);
  });
}

export interface UsersService {
  /** Every user, by id, without hashes. */
  list(): UserView[];
  /** One user for its owner or an admin; non-admins do not see the scope. */
  get(caller: UserRecord, id: number): UserView;
  /** POST /api/users: an admin creates a user; returns its id. */
  create(caller: UserRecord, env: UserEnvelope | undefined): Promise<number>;
  /** PUT /api/users/{id}: replaces the record (`all`, admins) or writes the listed fields. */
  update(caller: UserRecord, id: number, env: UserEnvelope | undefined): Promise<void>;
  /** DELETE /api/users/{id}: the owner or an admin; never the last admin. */
  remove(caller: UserRecord, id: number, body: UserDeleteBody | undefined): Promise<void>;
  /** POST /api/users/{id}/logout: ends every token of that user. */
  endSessions(id: number): Promise<void>;
}

/** Users API (api.md §3.2): every check of the spec, decisions only, no HTTP. */
export function createUsersService(deps: UsersServiceDeps): UsersService {
  const { store } = deps;
  const ctx: Ctx = { store, root: deps.config.root, sessions: deps.sessions, now: deps.now ?? Date.now, settings: () => effectiveSettings(store.data().settings) };
  return {
    list: () => [...store.data().users].sort((a, b) => a.id - b.id).map((u) => userView(u)),
    get(caller, id) {
      assertSelfOrAdmin(caller, id);
      return userView(userById(store.data(), id), !caller.perm.admin);
    },
    create: (caller, env) => create(ctx, caller, env),
    update: (caller, id, env) => update(ctx, caller, { id, env }),
    remove: (caller, id, body) => remove(ctx, caller, { id, body }),
    endSessions: (id) => endSessions({ store, sessions: ctx.sessions }, id, ctx.now()),
  };
}
