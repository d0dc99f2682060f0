/**
 * The shape of the one JSON state file. Field names follow filebrowser's export format
 * (api.md §3.2, §3.3, §7, §10.3) so `config export` / `users export` round-trip with it.
 */
export const SCHEMA_VERSION = 1;

export interface Permissions {
  admin: boolean;
  execute: boolean;
  create: boolean;
  rename: boolean;
  modify: boolean;
  delete: boolean;
  share: boolean;
  download: boolean;
}

export interface Rule {
  regex: boolean;
  allow: boolean;
  path: string;
  regexp: { raw: string } | null;
}

export interface Sorting {
  by: string;
  asc: boolean;
}

export interface UserDefaults {
  scope: string;
  locale: string;
  viewMode: string;
  singleClick: boolean;
  redirectAfterCopyMove: boolean;
  sorting: Sorting;
  perm: Permissions;
  commands: string[];
  hideDotfiles: boolean;
  dateFormat: boolean;
  aceEditorTheme: string;
}

export interface UserRecord extends Omit<UserDefaults, 'scope'> {
  id: number;
  username: string;
  /** bcrypt hash; never leaves the server. */
  password: string;
  scope: string;
  lockPassword: boolean;
  rules: Rule[];
  /** Tokens issued before this epoch (unix seconds) are revoked (api.md §14). */
  sessionEpoch: number;
}

export interface Branding {
  name: string;
  disableExternal: boolean;
  disableUsedPercentage: boolean;
  files: string;
  theme: string;
  color: string;
  /** Where the error notices' "Report Issue" link leads (an http(s) address); '' = no link. */
  issueTracker: string;
}

export interface Settings {
  /** HS256 signing key, base64 of 64 random bytes; never exposed by the API. */
  key: string;
  signup: boolean;
  hideLoginButton: boolean;
  createUserDir: boolean;
  userHomeBasePath: string;
  defaults: UserDefaults;
  authMethod: string;
  logoutPage: string;
  branding: Branding;
  tus: { chunkSize: number; retryCount: number };
  commands: Record<string, string[]>;
  shell: string[];
  rules: Rule[];
  minimumPasswordLength: number;
  fileMode: number;
  dirMode: number;
  hideDotfiles: boolean;
}

/** Server values stored in the database; flags, environment and config file override them. */
export interface ServerSettings {
  root: string;
  baseURL: string;
  socket: string;
  tlsKey: string;
  tlsCert: string;
  port: string;
  address: string;
  log: string;
  enableThumbnails: boolean;
  resizePreview: boolean;
  enableExec: boolean;
  typeDetectionByHeader: boolean;
  imageResolutionCalculation: boolean;
  authHook: string;
  tokenExpirationTime: string;
  followExternalSymlinks: boolean;
}

export interface Auther {
  recaptcha?: { host: string; key: string; secret: string } | null;
  header?: string;
  command?: string;
}

export interface ShareRecord {
  hash: string;
  path: string;
  userID: number;
  expire: number;
  password_hash?: string;
  token?: string;
  /** beyond.md §2: absent = a download link (filebrowser's records). */
  kind?: 'download' | 'upload';
  /** Downloads allowed; absent or 0 = unlimited. */
  maxDownloads?: number;
  /** Counted downloads (each 200 of /api/public/dl); absent = 0. */
  downloads?: number;
  /** Files received through an upload link; absent = 0. */
  uploads?: number;
}

export interface Database {
  version: number;
  settings: Settings;
  server: ServerSettings;
  auther: Auther;
  users: UserRecord[];
  shares: ShareRecord[];
  nextUserId: number;
}
