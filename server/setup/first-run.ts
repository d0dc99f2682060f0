import { randomBytes } from 'node:crypto';
import { emptyDatabase } from '../state/initial';
import type { Database, ServerSettings, UserDefaults, UserRecord } from '../state/schema';

const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** True when `value` is a bcrypt hash (`$2a$`, `$2b$` or `$2y$`), as --password must be. */
export function isBcryptHash(value: string): boolean {
  return BCRYPT_HASH.test(value);
}

/** A first-run password: 12 random bytes as URL-safe base64, 16 characters (api.md §12). */
export function randomPassword(): string {
  return randomBytes(12).toString('base64url');
}

export interface FirstRunOptions {
  authMethod: 'json' | 'noauth';
  username: string;
  /** bcrypt hash of the first user's password. */
  passwordHash: string;
  /** Server values from the effective flags. */
  server: ServerSettings;
}

function adminUser(defaults: UserDefaults, username: string, passwordHash: string): UserRecord {
  const d = structuredClone(defaults);
  return {
    id: 1,
    username,
    password: passwordHash,
    scope: d.scope,
    locale: d.locale,
    lockPassword: false,
    viewMode: d.viewMode,
    singleClick: d.singleClick,
    redirectAfterCopyMove: d.redirectAfterCopyMove,
    perm: { ...d.perm, admin: true },
    commands: d.commands,
    sorting: d.sorting,
    rules: [],
    hideDotfiles: d.hideDotfiles,
    dateFormat: d.dateFormat,
    aceEditorTheme: d.aceEditorTheme,
    sessionEpoch: 0,
  };
}

/**
 * The database quick setup creates on first run (api.md §10.1): a fresh 64-byte key, the
 * quick-setup settings, the auther of the chosen method, the server values of the effective
 * flags, and the first user (id 1, admin, every other permission of the defaults).
 */
export function firstRunDatabase(opts: FirstRunOptions): Database {
  const db = emptyDatabase(opts.authMethod);
  db.server = { ...opts.server };
  db.users.push(adminUser(db.settings.defaults, opts.username, opts.passwordHash));
  db.nextUserId = 2;
  return db;
}
