import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import bcrypt from 'bcryptjs';
import { buildApp } from '../../server/app';
import { defaultServerConfig, type ServerConfig } from '../../server/config';
import { normalizeUser, userFromDefaults, type NewUser } from '../../server/accounts/records';
import { tokenCodec, type TokenCodec } from '../../server/accounts/token';
import { tokenLifetimeMs } from '../../server/lib/go-duration';
import { noAssets } from '../../server/lib/assets';
import { emptyDatabase } from '../../server/state/initial';
import type { Permissions, Settings, UserRecord } from '../../server/state/schema';
import type { Store } from '../../server/state/store';
import { testStoreAt } from './test-database';
import { makeTree, type Tree } from './tree';

/** The admin every test app starts with (id 1, scope '/', every permission). */
export const TEST_ADMIN = { username: 'admin', password: 'admin-Pa55word!' } as const;

export interface TestAppOptions {
  /** Files created in the served root. */
  tree?: Tree;
  config?: Partial<ServerConfig>;
  /** Adjusts the settings before the app is built. */
  settings?: (s: Settings) => void;
  /** The server environment handed to hook programs. */
  env?: Record<string, string | undefined>;
}

/** A user to add: any record fields, permissions given partially (the rest from the defaults). */
export type TestUserFields = Partial<Omit<UserRecord, 'id' | 'password' | 'perm'>> & { username: string; password?: string; perm?: Partial<Permissions> };

export interface TestApp {
  app: FastifyInstance;
  /** The served root (a temp directory, removed by close()). */
  root: string;
  store: Store;
  config: ServerConfig;
  /** A valid token for `username` (default the admin), signed with the settings key. */
  token(username?: string): string;
  /** The app's token codec (@fastify/jwt), for tokens with other lifetimes or times. */
  tokens: TokenCodec;
  /** Adds a user straight to the store (defaults for missing fields; password hashed at cost 4). */
  addUser(fields: TestUserFields): Promise<UserRecord>;
  close(): Promise<void>;
}

/** The clear-text password addUser gives a user when none is passed. */
export function defaultPasswordOf(username: string): string {
  return `pw-${username}-Xq7!long`;
}

function recordFor(settings: Settings, fields: TestUserFields): NewUser {
  // Cost 4 keeps tests fast; verification reads the cost from the hash, as for imported users.
  const hash = bcrypt.hashSync(fields.password ?? defaultPasswordOf(fields.username), 4);
  const { password: _password, ...rest } = fields;
  const base = userFromDefaults(settings.defaults, fields.username, hash);
  return normalizeUser({ ...base, scope: '/', ...rest, password: hash, perm: { ...base.perm, ...(rest.perm ?? {}) } });
}

/**
 * A real app on a memory store (PostgreSQL with FILEMGR_TEST_DATABASE=postgres) with a temp root (scope '/' is that root) and the admin
 * `admin`. Other engineers' tests (files, shares, tus) use it: keep it stable.
 */
export async function buildTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const root = await makeTree(opts.tree ?? {});
  const db = emptyDatabase();
  opts.settings?.(db.settings);
  const { store, url } = await testStoreAt(db);
  const config = defaultServerConfig({ root, ...(url === undefined ? {} : { databaseUrl: url }), ...opts.config });
  const addUser = (fields: TestUserFields): Promise<UserRecord> =>
    store.update((d) => {
      const id = d.nextUserId++;
      const user: UserRecord = { ...recordFor(d.settings, fields), id };
      d.users.push(user);
      return structuredClone(user);
    });
  await addUser({ ...TEST_ADMIN, perm: { admin: true, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true } });
  const app = await buildApp({ store, config, assets: noAssets(), logger: false, env: opts.env });
  const tokens = tokenCodec(app.jwt);
  const token = (username: string = TEST_ADMIN.username): string => {
    const user = store.data().users.find((u) => u.username === username);
    if (!user) throw new Error(`test app: no user ${username}`);
    return tokens.sign(user, store.data().settings.key, { lifetimeMs: tokenLifetimeMs(config.tokenExpirationTime), nowMs: Date.now() });
  };
  return {
    app,
    root,
    store,
    config,
    token,
    tokens,
    addUser,
    async close() {
      await app.close();
      await store.close?.();
      await rm(root, { recursive: true, force: true });
    },
  };
}
