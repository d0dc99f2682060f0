import { randomBytes } from 'node:crypto';
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE } from './modes';
import { SCHEMA_VERSION, type Database, type ServerSettings, type Settings, type UserDefaults } from './schema';

/** Upstream's tus settings (api.md §7): the default, and what a stored all-zero pair means. */
export const DEFAULT_TUS: Readonly<{ chunkSize: number; retryCount: number }> = { chunkSize: 10 * 1024 * 1024, retryCount: 5 };

/** The ten event-hook keys that always exist in settings.commands (api.md §3.3). */
export const HOOK_EVENTS = ['save', 'copy', 'rename', 'upload', 'delete'] as const;

/** Every before_/after_ key with an empty command list. */
export function emptyHookCommands(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const evt of HOOK_EVENTS) {
    out[`before_${evt}`] = [];
    out[`after_${evt}`] = [];
  }
  return out;
}

/** Days the activity log keeps its entries (beyond.md §8). */
export const DEFAULT_ACTIVITY_DAYS = 90;

/** User defaults of a first-run (quick setup) database, api.md §7. */
export function quickSetupDefaults(): UserDefaults {
  return {
    scope: '.',
    locale: 'en',
    viewMode: 'mosaic',
    singleClick: false,
    redirectAfterCopyMove: true,
    sorting: { by: 'name', asc: false },
    perm: { admin: false, execute: true, create: true, rename: true, modify: true, delete: true, share: true, download: true },
    commands: [],
    hideDotfiles: false,
    dateFormat: false,
    aceEditorTheme: '',
  };
}

/** Settings of a new database with a fresh 64-byte signing key. */
export function newSettings(authMethod: 'json' | 'noauth'): Settings {
  return {
    key: randomBytes(64).toString('base64'),
    signup: false,
    hideLoginButton: true,
    createUserDir: false,
    userHomeBasePath: '/users',
    defaults: quickSetupDefaults(),
    authMethod,
    logoutPage: '/login',
    branding: { name: '', disableExternal: false, disableUsedPercentage: false, files: '', theme: '', color: '', issueTracker: '' },
    tus: { ...DEFAULT_TUS },
    commands: emptyHookCommands(),
    shell: [],
    rules: [],
    minimumPasswordLength: 12,
    fileMode: DEFAULT_FILE_MODE,
    dirMode: DEFAULT_DIR_MODE,
    hideDotfiles: false,
    activityDays: DEFAULT_ACTIVITY_DAYS,
    requireTotp: false,
    trash: { enabled: true, days: 30 },
  };
}

/** Server settings with filebrowser's defaults (flags override them at start). */
export function defaultServerSettings(): ServerSettings {
  return {
    root: '.',
    baseURL: '',
    socket: '',
    tlsKey: '',
    tlsCert: '',
    port: '8080',
    address: '127.0.0.1',
    log: 'stdout',
    enableThumbnails: true,
    resizePreview: true,
    enableExec: false,
    typeDetectionByHeader: true,
    imageResolutionCalculation: true,
    authHook: '',
    tokenExpirationTime: '2h',
    followExternalSymlinks: false,
  };
}

/** An empty database: settings, server settings and no users yet. */
export function emptyDatabase(authMethod: 'json' | 'noauth' = 'json'): Database {
  return {
    version: SCHEMA_VERSION,
    settings: newSettings(authMethod),
    server: defaultServerSettings(),
    auther: authMethod === 'json' ? { recaptcha: null } : {},
    users: [],
    shares: [],
    nextUserId: 1,
    tokens: [],
    totp: [],
    trash: [],
  };
}
