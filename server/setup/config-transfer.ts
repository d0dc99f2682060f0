import { httpUrlOrEmpty } from '../lib/http-url';
import { compileRuleRegex } from '../rules/regex';
import { createModes } from '../state/modes';
import { DEFAULT_ACTIVITY_DAYS, DEFAULT_TUS, defaultServerSettings, emptyHookCommands, quickSetupDefaults } from '../state/initial';
import type { Auther, Database, Rule, ServerSettings, Settings, TrashSettings, UserDefaults } from '../state/schema';
import { TRASH_DEFAULTS, trashSettingsOf } from '../state/trash-records';
import { ConfigFormatError, FieldReader } from './field-reader';

/** The configuration part of a database: what `config export` writes and `config import` reads. */
export type Configuration = Pick<Database, 'settings' | 'server' | 'auther'>;

/** The auth methods and the auther shape each one stores (api.md §2.4). */
export const AUTH_METHODS = ['json', 'noauth', 'proxy', 'hook'] as const;

const RECAPTCHA_HOST = 'https://www.google.com';

/** The auther of a method with only the fields filebrowser stores for it. */
export function autherFor(method: string, auther: Auther): Auther {
  switch (method) {
    case 'json': return { recaptcha: auther.recaptcha ? { host: auther.recaptcha.host, key: auther.recaptcha.key, secret: auther.recaptcha.secret } : null };
    case 'proxy': return { header: auther.header ?? '' };
    case 'hook': return { command: auther.command ?? '' };
    default: return {};
  }
}

function exportDefaults(d: UserDefaults): Record<string, unknown> {
  return {
    scope: d.scope, locale: d.locale, viewMode: d.viewMode, singleClick: d.singleClick,
    redirectAfterCopyMove: d.redirectAfterCopyMove, sorting: { by: d.sorting.by, asc: d.sorting.asc },
    perm: { ...d.perm }, commands: [...d.commands], hideDotfiles: d.hideDotfiles, dateFormat: d.dateFormat,
    aceEditorTheme: d.aceEditorTheme,
  };
}

function exportSettings(s: Settings): Record<string, unknown> {
  return {
    key: s.key, signup: s.signup, hideLoginButton: s.hideLoginButton, createUserDir: s.createUserDir,
    userHomeBasePath: s.userHomeBasePath, defaults: exportDefaults(s.defaults), authMethod: s.authMethod,
    logoutPage: s.logoutPage, branding: { ...s.branding }, tus: { chunkSize: s.tus.chunkSize, retryCount: s.tus.retryCount },
    commands: structuredClone(s.commands), shell: [...s.shell],
    rules: s.rules.map((r) => ({ regex: r.regex, allow: r.allow, path: r.path, regexp: r.regexp ? { raw: r.regexp.raw } : null })),
    minimumPasswordLength: s.minimumPasswordLength, fileMode: s.fileMode, dirMode: s.dirMode, hideDotfiles: s.hideDotfiles,
    activityDays: s.activityDays ?? DEFAULT_ACTIVITY_DAYS,
    // filemgr's own (beyond.md §4.2): written only when on, so a default export keeps filebrowser's shape.
    ...(s.requireTotp ? { requireTotp: true } : {}),
    trash: trashSettingsOf(s),
  };
}

/** The recycle bin settings (beyond.md §3); absent (a filebrowser file): on, 30 days. */
function readTrash(r: FieldReader | undefined): TrashSettings {
  const days = r?.uint('days', TRASH_DEFAULTS.days) ?? TRASH_DEFAULTS.days;
  if (days < 1 || days > 3650) throw new ConfigFormatError('settings.trash.days must be between 1 and 3650');
  return { enabled: r?.bool('enabled', TRASH_DEFAULTS.enabled) ?? TRASH_DEFAULTS.enabled, days };
}

/**
 * The configuration in filebrowser's `config export` shape (api.md §7, §10.2):
 * `{settings: {key (base64), ...}, server: {...}, auther: {...}}`, field by field so nothing
 * internal leaks into the file.
 */
export function exportConfig(c: Configuration): { settings: Record<string, unknown>; server: Record<string, unknown>; auther: Auther } {
  const sv = c.server;
  const server = {
    root: sv.root, baseURL: sv.baseURL, socket: sv.socket, tlsKey: sv.tlsKey, tlsCert: sv.tlsCert, port: sv.port,
    address: sv.address, log: sv.log, enableThumbnails: sv.enableThumbnails, resizePreview: sv.resizePreview,
    enableExec: sv.enableExec, typeDetectionByHeader: sv.typeDetectionByHeader,
    imageResolutionCalculation: sv.imageResolutionCalculation, authHook: sv.authHook,
    tokenExpirationTime: sv.tokenExpirationTime, followExternalSymlinks: sv.followExternalSymlinks,
  };
  return { settings: exportSettings(c.settings), server, auther: autherFor(c.settings.authMethod, c.auther) };
}

function readDefaults(r: FieldReader | undefined): UserDefaults {
  const d = quickSetupDefaults();
  if (!r) return d;
  const perm = r.child('perm');
  const sorting = r.child('sorting');
  const p = d.perm;
  return {
    scope: r.string('scope', d.scope),
    // Empty locale and view mode are filled on save (api.md §3.3).
    locale: r.string('locale', '') || 'en',
    viewMode: r.string('viewMode', '') || 'mosaic',
    singleClick: r.bool('singleClick', false),
    redirectAfterCopyMove: r.bool('redirectAfterCopyMove', false),
    sorting: { by: sorting?.string('by', '') ?? d.sorting.by, asc: sorting?.bool('asc', false) ?? false },
    perm: {
      admin: perm?.bool('admin', false) ?? p.admin, execute: perm?.bool('execute', false) ?? p.execute,
      create: perm?.bool('create', false) ?? p.create, rename: perm?.bool('rename', false) ?? p.rename,
      modify: perm?.bool('modify', false) ?? p.modify, delete: perm?.bool('delete', false) ?? p.delete,
      share: perm?.bool('share', false) ?? p.share, download: perm?.bool('download', false) ?? p.download,
    },
    commands: r.strings('commands', []),
    hideDotfiles: r.bool('hideDotfiles', false),
    dateFormat: r.bool('dateFormat', false),
    aceEditorTheme: r.string('aceEditorTheme', ''),
  };
}

function readRule(value: unknown, where: string): Rule {
  const r = FieldReader.of(value, where);
  const regex = r.bool('regex', false);
  const raw = r.child('regexp')?.string('raw', '');
  if (regex) {
    try {
      // The rules' own compiler: filebrowser exports carry Go (RE2) syntax such as (?i).
      compileRuleRegex(raw ?? '');
    } catch (err) {
      throw new ConfigFormatError(`${where} has an invalid regular expression: ${(err as Error).message}`);
    }
  }
  return { regex, allow: r.bool('allow', false), path: r.string('path', ''), regexp: raw === undefined ? null : { raw } };
}

function readCommands(r: FieldReader | undefined): Record<string, string[]> {
  const out = emptyHookCommands();
  for (const [event, value] of r?.entries() ?? []) {
    if (value === null) continue;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new ConfigFormatError(`settings.commands.${event} must be a list of strings`);
    out[event] = value;
  }
  return out;
}

/** Branding; `issueTracker` (filemgr's addition, absent from filebrowser's files) must be http(s). */
function readBranding(r: FieldReader | undefined): Settings['branding'] {
  const issueTracker = httpUrlOrEmpty(r?.string('issueTracker', '') ?? '');
  if (issueTracker === undefined) throw new ConfigFormatError('settings.branding.issueTracker must be an http:// or https:// address, or empty');
  return {
    name: r?.string('name', '') ?? '', disableExternal: r?.bool('disableExternal', false) ?? false,
    disableUsedPercentage: r?.bool('disableUsedPercentage', false) ?? false, files: r?.string('files', '') ?? '',
    theme: r?.string('theme', '') ?? '', color: r?.string('color', '') ?? '', issueTracker,
  };
}

function readSettings(s: FieldReader, key: string): Settings {
  const authMethod = s.string('authMethod', '') || 'json';
  if (!(AUTH_METHODS as readonly string[]).includes(authMethod)) throw new ConfigFormatError(`invalid auth method "${authMethod}" in settings.authMethod`);
  const tus = s.child('tus');
  return {
    key,
    signup: s.bool('signup', false),
    hideLoginButton: s.bool('hideLoginButton', false),
    createUserDir: s.bool('createUserDir', false),
    // Zero values are replaced by defaults when read (api.md §7).
    userHomeBasePath: s.string('userHomeBasePath', '') || '/users',
    defaults: readDefaults(s.child('defaults')),
    authMethod,
    logoutPage: s.string('logoutPage', '') || '/login',
    branding: readBranding(s.child('branding')),
    tus: { chunkSize: tus?.uint('chunkSize', 0) || DEFAULT_TUS.chunkSize, retryCount: tus?.uint('retryCount', 0) || DEFAULT_TUS.retryCount },
    commands: readCommands(s.child('commands')),
    shell: s.strings('shell', []),
    rules: s.list('rules').map((rule, i) => readRule(rule, `settings.rules[${i}]`)),
    minimumPasswordLength: s.uint('minimumPasswordLength', 0) || 12,
    ...createModes({ fileMode: s.uint('fileMode', 0), dirMode: s.uint('dirMode', 0) }),
    hideDotfiles: s.bool('hideDotfiles', false),
    // filemgr's addition (beyond.md §8), absent from filebrowser's files: the default then.
    activityDays: Math.min(3650, s.uint('activityDays', 0)) || DEFAULT_ACTIVITY_DAYS,
    requireTotp: s.bool('requireTotp', false),
    trash: readTrash(s.child('trash')),
  };
}

function readServer(r: FieldReader): ServerSettings {
  const d = defaultServerSettings();
  return {
    root: r.string('root', d.root), baseURL: r.string('baseURL', d.baseURL).replace(/\/+$/, ''),
    socket: r.string('socket', d.socket), tlsKey: r.string('tlsKey', d.tlsKey), tlsCert: r.string('tlsCert', d.tlsCert),
    port: r.string('port', d.port), address: r.string('address', d.address), log: r.string('log', d.log),
    enableThumbnails: r.bool('enableThumbnails', d.enableThumbnails), resizePreview: r.bool('resizePreview', d.resizePreview),
    enableExec: r.bool('enableExec', d.enableExec), typeDetectionByHeader: r.bool('typeDetectionByHeader', d.typeDetectionByHeader),
    imageResolutionCalculation: r.bool('imageResolutionCalculation', d.imageResolutionCalculation),
    authHook: r.string('authHook', d.authHook), tokenExpirationTime: r.string('tokenExpirationTime', d.tokenExpirationTime),
    followExternalSymlinks: r.bool('followExternalSymlinks', d.followExternalSymlinks),
  };
}

function readAuther(method: string, r: FieldReader | undefined): Auther {
  if (method === 'json') {
    const rc = r?.child('recaptcha');
    return { recaptcha: rc ? { host: rc.string('host', '') || RECAPTCHA_HOST, key: rc.string('key', ''), secret: rc.string('secret', '') } : null };
  }
  if (method === 'proxy') {
    const header = r?.string('header', '') ?? '';
    if (header === '') throw new ConfigFormatError('auther.header is required by the proxy auth method');
    return { header };
  }
  if (method === 'hook') {
    const command = r?.string('command', '') ?? '';
    if (command === '') throw new ConfigFormatError('auther.command is required by the hook auth method');
    return { command };
  }
  return {};
}

/**
 * Reads a configuration written by `config export` (filemgr's or filebrowser's, JSON or YAML):
 * requires `settings` and `server`, decodes the auther by `settings.authMethod`, fills zero
 * values with defaults, and takes `key` (the database's own signing key) instead of the file's.
 */
export function importConfig(data: unknown, key: string): Configuration {
  const root = FieldReader.of(data, 'the configuration');
  const settings = root.child('settings');
  const server = root.child('server');
  if (!settings) throw new ConfigFormatError('the configuration has no "settings" object');
  if (!server) throw new ConfigFormatError('the configuration has no "server" object');
  const s = readSettings(settings, key);
  return { settings: s, server: readServer(server), auther: readAuther(s.authMethod, root.child('auther')) };
}
