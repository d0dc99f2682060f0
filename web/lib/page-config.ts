import type { PageConfig } from '@contract/page-config';

/** The product name shown when the instance has no branding name (api.md §14). */
export const PRODUCT_NAME = 'filemgr';

const DEFAULTS: PageConfig = {
  AuthMethod: 'json',
  BaseURL: '',
  CSS: false,
  Color: '',
  DisableExternal: false,
  DisableUsedPercentage: false,
  EnableExec: false,
  EnableThumbs: true,
  HideLoginButton: false,
  IssueTracker: '',
  LoginPage: true,
  LogoutPage: '/login',
  Name: '',
  NoAuth: false,
  OidcName: '',
  PasswordLogin: true,
  ReCaptcha: false,
  ResizePreview: true,
  Signup: false,
  StaticURL: '/static',
  Theme: '',
  Trash: false,
  TusSettings: { chunkSize: 10 * 1024 * 1024, retryCount: 5 },
  Version: '',
  WebDAV: false,
};

function pick<T>(raw: Record<string, unknown>, key: keyof PageConfig, fallback: T): T {
  const value = raw[key];
  return typeof value === typeof fallback ? (value as T) : fallback;
}

function readTus(raw: Record<string, unknown>): PageConfig['TusSettings'] {
  const tus = raw.TusSettings;
  if (typeof tus !== 'object' || tus === null) return DEFAULTS.TusSettings;
  const { chunkSize, retryCount } = tus as Record<string, unknown>;
  return {
    chunkSize: typeof chunkSize === 'number' ? chunkSize : DEFAULTS.TusSettings.chunkSize,
    retryCount: typeof retryCount === 'number' ? retryCount : DEFAULTS.TusSettings.retryCount,
  };
}

/**
 * The page configuration from `window.FileBrowser`, each key checked for its type: a missing or
 * mistyped key (an older server, a hand-edited page) takes its default instead of breaking the UI.
 */
export function readPageConfig(raw: unknown): PageConfig {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const config = { ...DEFAULTS, TusSettings: readTus(source) };
  for (const key of Object.keys(DEFAULTS) as (keyof PageConfig)[]) {
    if (key === 'TusSettings') continue;
    Object.assign(config, { [key]: pick(source, key, DEFAULTS[key]) });
  }
  for (const key of ['ReCaptchaHost', 'ReCaptchaKey'] as const) {
    if (typeof source[key] === 'string') config[key] = source[key];
  }
  config.BaseURL = config.BaseURL.replace(/\/+$/, '');
  return config;
}

/** The instance name for titles and the header: branding `Name`, else the product name. */
export function instanceName(config: Pick<PageConfig, 'Name'>): string {
  return config.Name.trim() || PRODUCT_NAME;
}

/** The document title: the given parts (most specific first) and the instance name. */
export function pageTitle(parts: readonly string[], name: string): string {
  return [...parts.filter(Boolean), name].join(' - ');
}

/** Whether the inactivity logout applies: not for proxy auth with its own logout page (§2.5). */
export function expiryLogoutEnabled(config: Pick<PageConfig, 'AuthMethod' | 'LogoutPage'>): boolean {
  return !(config.AuthMethod === 'proxy' && config.LogoutPage !== '/login');
}

/** Whether to offer Logout: never in noauth mode, and only where a login or logout page is used. */
export function canLogout(config: Pick<PageConfig, 'NoAuth' | 'LoginPage' | 'LogoutPage'>): boolean {
  return !config.NoAuth && (config.LoginPage || config.LogoutPage !== '/login');
}
