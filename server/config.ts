/**
 * The resolved run-time configuration of a server (flags > environment > config file > values
 * stored in the database > defaults; resolved by cli/). Services receive the parts they need.
 */
export interface ServerConfig {
  /** Absolute served root. */
  root: string;
  /** Base URL without trailing slash, '' for none. */
  baseURL: string;
  address: string;
  port: number;
  socket: string;
  socketPerm: number;
  cert: string;
  key: string;
  log: string;
  cacheDir: string;
  imageProcessors: number;
  /** How often the search index rescans for outside changes (ms); 0 = no index (beyond.md §7). */
  indexInterval: number;
  tokenExpirationTime: string;
  enableThumbnails: boolean;
  resizePreview: boolean;
  enableExec: boolean;
  typeDetectionByHeader: boolean;
  followExternalSymlinks: boolean;
  /** --disableWebDAV: /dav/ answers 404 (beyond.md §1). */
  disableWebDAV: boolean;
  /** Peers (IPs or CIDRs) whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** The database file, so the server never lists, serves or touches it (api.md §14). */
  databasePath: string;
  /** --database when it is a PostgreSQL URL: the shared ephemerals of several instances live there (beyond.md §10). Never logged. */
  databaseUrl?: string;
  version: string;
  commit: string;
  /** OpenID Connect sign-in (beyond.md §4.3); absent when --oidc.issuer is empty. */
  oidc?: OidcConfig;
}

/** The --oidc.* flags, checked by accounts/oidc-config.ts (the secret is never logged or sent). */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  usernameClaim: string;
  groupsClaim: string;
  /** '' = admin is never changed by sign-ins. */
  adminGroup: string;
  createUsers: boolean;
  passwordLogin: boolean;
  /** The provider's name on the login button. */
  name: string;
}

/** A configuration for tests and embedding: every value at its default. */
export function defaultServerConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    root: '/',
    baseURL: '',
    address: '127.0.0.1',
    port: 8080,
    socket: '',
    socketPerm: 0o666,
    cert: '',
    key: '',
    log: 'stdout',
    cacheDir: '',
    imageProcessors: 4,
    // Off unless asked for: tests and embedders build many apps, each index a worker and a file.
    indexInterval: 0,
    tokenExpirationTime: '2h',
    enableThumbnails: true,
    resizePreview: true,
    enableExec: false,
    typeDetectionByHeader: true,
    followExternalSymlinks: false,
    disableWebDAV: false,
    trustedProxies: [],
    databasePath: '',
    version: '0.0.0',
    commit: 'untracked',
    ...overrides,
  };
}
