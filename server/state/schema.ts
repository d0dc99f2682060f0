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
  /** Bytes the user's files and trash may take (beyond.md §6); 0 or absent: no quota. */
  quota?: number;
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
  /** Days the activity log keeps its entries (beyond.md §8), 1..3650; absent in older files until read. */
  activityDays?: number;
  /** beyond.md §4.2: users without two-factor sign-in are sent to enrolment after signing in. */
  requireTotp?: boolean;
  /** The recycle bin (beyond.md §3); absent in older files = TRASH_DEFAULTS (state/trash-records.ts). */
  trash?: TrashSettings;
}

/** Global recycle bin settings (beyond.md §3). */
export interface TrashSettings {
  enabled: boolean;
  /** Items older than this many days (1..3650) are purged. */
  days: number;
}

/** One item in a user's recycle bin; its bytes are at `<root>/.filemgr-trash/<userId>/<id>/<name>`. */
export interface TrashRecord {
  /** 16 hex digits, also the item's folder name. */
  id: string;
  userId: number;
  /** The base name it had, and still has inside the trash. */
  name: string;
  /** Where it was, in the owner's scope. */
  path: string;
  isDir: boolean;
  /** Bytes of the file or tree (a tree's is counted after the move, see resources/trash). */
  size: number;
  /** When it was deleted, unix milliseconds. */
  deleted: number;
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

/** An API token of beyond.md §4.1: only the SHA-256 of the secret is kept; times in unix ms, 0 = never. */
export interface ApiTokenRecord {
  id: string;
  userId: number;
  name: string;
  /** Hex SHA-256 of the whole token (`fm_…`). */
  hash: string;
  created: number;
  expires: number;
  lastUsed: number;
  perm: Permissions;
}

/** A user's two-factor sign-in (beyond.md §4.2); `enabled` false while enrolment waits for its first code. */
export interface TotpRecord {
  userId: number;
  /** The base32 secret, AES-256-GCM encrypted with a key derived from the signing key. */
  secret: string;
  enabled: boolean;
  /** The last 30-second step accepted (a code is accepted once). */
  lastStep: number;
  /** Hex SHA-256 of each unused recovery code. */
  recovery: string[];
  created: number;
}

export interface Database {
  version: number;
  settings: Settings;
  server: ServerSettings;
  auther: Auther;
  users: UserRecord[];
  shares: ShareRecord[];
  nextUserId: number;
  /** API tokens (beyond.md §4.1); absent in files written before them. */
  tokens?: ApiTokenRecord[];
  /** Two-factor sign-in records (beyond.md §4.2); absent in files written before them. */
  totp?: TotpRecord[];
  /** Recycle bin records (beyond.md §3); absent in older files. */
  trash?: TrashRecord[];
  /** WebDAV dead properties by the resource's real path (beyond.md §1); absent until one is set. */
  davProperties?: Record<string, DeadProperty[]>;
}

/** A WebDAV dead property: its name and the whole element as a self-contained XML fragment. */
export interface DeadProperty {
  ns: string;
  name: string;
  xml: string;
}
