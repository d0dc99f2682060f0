/**
 * THE flag table (ARCHITECTURE.md): every flag of every command, with its short letter, default,
 * environment variable and description. Help, parsing and the environment/config-file lookup are
 * all generated from these definitions.
 */
import { DEFAULT_TUS } from '../server/state/initial';
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE } from '../server/state/modes';

export type FlagKind = 'string' | 'bool' | 'int' | 'list' | 'mode';
export type FlagValue = string | number | boolean | string[];

export interface FlagDef {
  /** The long name, as typed after `--` and as used as a config-file key. */
  name: string;
  short?: string;
  kind: FlagKind;
  default: FlagValue;
  description: string;
  /**
   * Read from FILEMGR_<NAME> / FB_<NAME> and from the config file as well as the command line.
   * Only the server flags and --database/--config are: a subcommand's own flags (a plain-text
   * --password, a --username that selects whose rules) must never be picked up from a
   * deployment's environment by accident.
   */
  env?: boolean;
  /** Other spellings accepted silently (`--baseurl`). */
  aliases?: string[];
  /** Old kebab-case spellings accepted with a notice on stderr (api.md §10.1). */
  deprecated?: string[];
  /** Allowed values of a string flag. */
  choices?: string[];
  /** Smallest allowed value of an int flag. */
  min?: number;
  max?: number;
}

type Extra = Omit<FlagDef, 'name' | 'kind' | 'default' | 'description'>;

function flag(kind: FlagKind) {
  // A table row reads best positionally: name, default, description, then the rest.
  // eslint-disable-next-line max-params
  return <V extends FlagValue>(name: string, def: V, description: string, extra: Extra = {}): FlagDef => ({
    name, kind, default: def, description, ...extra,
  });
}
const str = flag('string');
const bool = flag('bool');
const int = flag('int');
const list = flag('list');
const mode = flag('mode');
const ENV = { env: true } as const;

/** Flags every command takes. */
export const GLOBAL_FLAGS: readonly FlagDef[] = [
  str('config', '', 'config file (default: .filemgr.json|.yaml|.yml in ./, $HOME/, /etc/filemgr/)', { short: 'c', ...ENV }),
  str('database', './filemgr.json', 'database file, or postgres://user:password@host:port/db for several instances', { short: 'd', ...ENV }),
];

/** The server values that are also stored in the database (config init/set write them). */
export const SERVER_FLAGS: readonly FlagDef[] = [
  str('address', '127.0.0.1', 'address to listen on ("" = every interface)', { short: 'a', ...ENV }),
  int('port', 8080, 'port to listen on (0 = any free port)', { short: 'p', min: 0, max: 65535, ...ENV }),
  str('root', '.', 'directory to serve', { short: 'r', ...ENV }),
  str('baseURL', '', 'base URL when served under a path prefix, e.g. /files', { short: 'b', aliases: ['baseurl'], ...ENV }),
  str('log', 'stdout', 'log to stdout, stderr, "" (nowhere) or a file (rotated at 100 MB)', { short: 'l', ...ENV }),
  str('cert', '', 'TLS certificate file (PEM); with --key serves HTTPS', { short: 't', ...ENV }),
  str('key', '', 'TLS private key file (PEM)', { short: 'k', ...ENV }),
  str('socket', '', 'unix socket to listen on instead of --address/--port', ENV),
  str('tokenExpirationTime', '2h', 'session lifetime, a Go duration such as 90m or 1h30m', { deprecated: ['token-expiration-time'], ...ENV }),
  bool('disableThumbnails', false, 'serve originals instead of thumbnails', { deprecated: ['disable-thumbnails'], ...ENV }),
  bool('disablePreviewResize', false, 'serve originals instead of resized previews', { deprecated: ['disable-preview-resize'], ...ENV }),
  bool('disableExec', true, 'disable the command runner and event hooks', { deprecated: ['disable-exec'], ...ENV }),
  bool('disableTypeDetectionByHeader', false, 'detect file types by extension only in listings', { deprecated: ['disable-type-detection-by-header'], ...ENV }),
  bool('disableImageResolutionCalc', false, 'stored for compatibility; has no effect', ENV),
  bool('followExternalSymlinks', false, 'follow symlinks that lead outside a user\'s scope', ENV),
];

/** Flags only the server takes (not stored in the database). */
export const SERVE_ONLY_FLAGS: readonly FlagDef[] = [
  str('logFormat', 'auto', 'log lines as text or json; auto = text when the log goes to a terminal, json otherwise', { choices: ['auto', 'text', 'json'], ...ENV }),
  mode('socketPerm', 0o666, 'permissions of the unix socket, octal', { deprecated: ['socket-perm'], ...ENV }),
  str('cacheDir', '', 'preview cache directory (created 0700); empty = no cache', { deprecated: ['cache-dir'], ...ENV }),
  int('imageProcessors', 4, 'concurrent image resizes', { min: 1, deprecated: ['img-processors'], ...ENV }),
  bool('disableWebDAV', false, 'stop serving WebDAV: /dav/ answers 404', { aliases: ['disableWebdav'], ...ENV }),
  str('indexInterval', '5m', 'how often the search index looks for changes made outside filemgr, a Go duration; 0 = no index (searches walk the disk)', ENV),
  list('trustedProxy', [], 'proxy address or CIDR whose X-Forwarded-For is believed (repeatable)', ENV),
  bool('noauth', false, 'first run only: sign everyone in as the first user', ENV),
  str('username', 'admin', 'first run only: name of the first (admin) user', ENV),
  str('password', '', 'first run only: bcrypt hash of the first user\'s password (see filemgr hash); empty = random, printed on a terminal, else written to <database>.admin-password', ENV),
  str('oidc.issuer', '', 'OpenID Connect provider (issuer) address; https:, or http: on this machine only ("" = no OpenID sign-in)', ENV),
  str('oidc.clientId', '', 'client id registered at the OpenID provider', ENV),
  str('oidc.clientSecret', '', 'client secret registered at the OpenID provider (prefer the environment or the config file)', ENV),
  str('oidc.scopes', 'openid profile email', 'scopes asked of the OpenID provider, space-separated', ENV),
  str('oidc.usernameClaim', 'preferred_username', 'ID token claim that names the filemgr user', ENV),
  str('oidc.groupsClaim', 'groups', 'ID token claim that lists the user\'s groups', ENV),
  str('oidc.adminGroup', '', 'group whose members are administrators, checked at every OpenID sign-in ("" = admin untouched)', ENV),
  bool('oidc.createUsers', true, 'create unknown users at their first OpenID sign-in, with the default settings', ENV),
  bool('oidc.passwordLogin', true, 'keep the password form beside OpenID sign-in (false: OpenID only)', ENV),
  str('oidc.name', 'OpenID', 'provider name on the login button "Sign in with <name>"', ENV),
  str('redisCacheUrl', '', 'accepted for filebrowser compatibility and ignored: upload state stays in this process', { deprecated: ['redis-cache-url'], ...ENV }),
];

/**
 * Global settings flags of config init/set (api.md §10.2); command line only. The defaults are
 * what config init stores; where the first start (quick setup, api.md §7) stores another value,
 * the description says "(a first start stores <value>)" (a test holds both to it).
 */
export const SETTINGS_FLAGS: readonly FlagDef[] = [
  bool('signup', false, 'allow visitors to create accounts', { short: 's' }),
  bool('hideLoginButton', false, 'hide the login button on public pages (a first start stores true)', { deprecated: ['hide-login-button'] }),
  bool('createUserDir', false, 'give each new user a home directory of their own', { deprecated: ['create-user-dir'] }),
  str('userHomeBasePath', '/users', 'where created home directories go, inside the root'),
  int('minimumPasswordLength', 12, 'minimum password length in bytes', { min: 1, deprecated: ['minimum-password-length'] }),
  int('activityDays', 90, 'days the activity log keeps its entries', { min: 1, max: 3650 }),
  str('shell', '', 'shell that runs commands, split on spaces (e.g. "sh -c"); empty = none'),
  mode('fileMode', DEFAULT_FILE_MODE, 'mode of files the server creates, octal (0o640)', { deprecated: ['file-mode'] }),
  mode('dirMode', DEFAULT_DIR_MODE, 'mode of directories the server creates, octal (0o750)', { deprecated: ['dir-mode'] }),
  str('auth.method', 'json', 'how users sign in', { choices: ['json', 'noauth', 'proxy', 'hook'] }),
  str('auth.header', '', 'request header holding the user name (auth.method=proxy)'),
  str('auth.command', '', 'program that decides sign-ins (auth.method=hook)'),
  str('auth.logoutPage', '/login', 'page shown after logging out'),
  str('recaptcha.host', 'https://www.google.com', 'reCAPTCHA host (auth.method=json)'),
  str('recaptcha.key', '', 'reCAPTCHA site key'),
  str('recaptcha.secret', '', 'reCAPTCHA secret'),
  str('branding.name', '', 'instance name shown instead of filemgr'),
  str('branding.theme', '', 'theme', { choices: ['', 'light', 'dark'] }),
  str('branding.color', '', 'theme colour (CSS colour)'),
  str('branding.files', '', 'directory with img/ and custom.css overrides (outside the root)'),
  bool('branding.disableExternal', false, 'hide links to external sites'),
  bool('branding.disableUsedPercentage', false, 'hide the disk usage graph'),
  str('branding.issueTracker', '', 'http(s) address of the "Report Issue" link in error notices ("" = no link)'),
  int('tus.chunkSize', DEFAULT_TUS.chunkSize, 'upload chunk size in bytes', { min: 1 }),
  int('tus.retryCount', DEFAULT_TUS.retryCount, 'upload retries per chunk', { min: 0, max: 65535 }),
];

/**
 * Defaults of new users (config init/set) and the fields of one user (users add/update):
 * the user flags of api.md §10.2; command line only. Defaults and first-start notes as above.
 */
export const USER_FLAGS: readonly FlagDef[] = [
  bool('perm.admin', false, 'administrator'),
  bool('perm.execute', true, 'may run commands'),
  bool('perm.create', true, 'may create files and folders'),
  bool('perm.rename', true, 'may rename and move'),
  bool('perm.modify', true, 'may edit files'),
  bool('perm.delete', true, 'may delete'),
  bool('perm.share', true, 'may share'),
  bool('perm.download', true, 'may download'),
  str('sorting.by', 'name', 'sort listings by', { choices: ['name', 'size', 'modified'] }),
  bool('sorting.asc', false, 'sort order flag of listings'),
  list('commands', [], 'commands the user may run (repeatable or comma-separated)'),
  str('scope', '.', 'the user\'s directory inside the root'),
  str('locale', 'en', 'interface language'),
  str('viewMode', 'list', 'listing layout (a first start stores mosaic)', { choices: ['list', 'mosaic'] }),
  bool('singleClick', false, 'open items with one click'),
  bool('redirectAfterCopyMove', false, 'go to the destination after copying or moving (a first start stores true)'),
  bool('dateFormat', false, 'show exact dates'),
  bool('hideDotfiles', false, 'hide files whose name starts with a dot'),
  str('aceEditorTheme', '', 'editor theme'),
];

/** The user flag that only applies to users, not to the defaults. */
export const LOCK_PASSWORD_FLAG: FlagDef = bool('lockPassword', false, 'the user may not change their password');

/** `--help` and `-h`, taken by every command. */
export const HELP_FLAG: FlagDef = bool('help', false, 'show this help', { short: 'h' });

/** UPPER_SNAKE_CASE of a flag name: baseURL -> BASE_URL, auth.method -> AUTH_METHOD. */
export function upperSnake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[.-]/g, '_')
    .toUpperCase();
}

/** The environment variables of a flag, highest precedence first (empty when it reads none). */
export function envNames(def: FlagDef): string[] {
  if (!def.env) return [];
  const names = [def.name, ...(def.aliases ?? [])].map(upperSnake);
  const unique = [...new Set(names)];
  return [...unique.map((n) => `FILEMGR_${n}`), ...unique.map((n) => `FB_${n}`)];
}

/** Every flag definition, for checks over the whole table. */
export function allFlags(): FlagDef[] {
  return [...GLOBAL_FLAGS, ...SERVER_FLAGS, ...SERVE_ONLY_FLAGS, ...SETTINGS_FLAGS, ...USER_FLAGS, LOCK_PASSWORD_FLAG, HELP_FLAG];
}

/** The flags of config init and config set: stored server values, settings, user defaults. */
export const CONFIG_FLAGS: readonly FlagDef[] = [...SERVER_FLAGS, ...SETTINGS_FLAGS, ...USER_FLAGS];
