import type { PageConfig } from '@contract/page-config';
import type { ServerConfig } from '../../config';
import { httpUrlOrEmpty } from '../../lib/http-url';
import { DEFAULT_TUS } from '../../state/initial';
import type { Auther, Settings } from '../../state/schema';
import { trashSettingsOf } from '../../state/trash-records';

export interface PageConfigInput {
  settings: Readonly<Settings>;
  auther: Readonly<Auther>;
  config: Readonly<ServerConfig>;
  /** Whether `<branding.files>/custom.css` exists (the caller looks, this stays pure). */
  hasCustomCss: boolean;
}


/** LoginPage per auth method (api.md §2.4): json and hook show a form, proxy and noauth do not. */
function hasLoginPage(authMethod: string): boolean {
  return authMethod === 'json' || authMethod === 'hook';
}

function recaptchaFields(settings: Readonly<Settings>, auther: Readonly<Auther>): Pick<PageConfig, 'ReCaptcha' | 'ReCaptchaHost' | 'ReCaptchaKey'> {
  const recaptcha = settings.authMethod === 'json' ? auther.recaptcha : null;
  if (!recaptcha) return { ReCaptcha: false };
  return {
    ReCaptcha: recaptcha.key !== '' && recaptcha.secret !== '',
    ReCaptchaHost: recaptcha.host,
    ReCaptchaKey: recaptcha.key,
  };
}

/** The page configuration (`window.FileBrowser`, api.md §3.19 and §14) from the current state. */
export function buildPageConfig(input: PageConfigInput): PageConfig {
  const { settings, auther, config } = input;
  const { branding } = settings;
  const tus = settings.tus.chunkSize === 0 && settings.tus.retryCount === 0 ? DEFAULT_TUS : settings.tus;
  return {
    AuthMethod: settings.authMethod,
    BaseURL: config.baseURL,
    CSS: input.hasCustomCss,
    Color: branding.color,
    DisableExternal: branding.disableExternal,
    DisableUsedPercentage: branding.disableUsedPercentage,
    EnableExec: config.enableExec,
    EnableThumbs: config.enableThumbnails,
    HideLoginButton: settings.hideLoginButton,
    // Checked again here: a hand-edited state file must not put a javascript: link on the page.
    IssueTracker: httpUrlOrEmpty(branding.issueTracker) ?? '',
    LoginPage: hasLoginPage(settings.authMethod),
    LogoutPage: settings.logoutPage || '/login',
    Name: branding.name,
    OidcName: config.oidc?.name ?? '',
    PasswordLogin: config.oidc?.passwordLogin !== false,
    NoAuth: settings.authMethod === 'noauth',
    ...recaptchaFields(settings, auther),
    ResizePreview: config.resizePreview,
    // No password form, no sign-up (--oidc.passwordLogin=false).
    Signup: settings.signup && config.oidc?.passwordLogin !== false,
    StaticURL: `${config.baseURL}/static`,
    Theme: branding.theme,
    Trash: trashSettingsOf(settings).enabled,
    TusSettings: { chunkSize: tus.chunkSize, retryCount: tus.retryCount },
    Version: config.version,
    WebDAV: !config.disableWebDAV,
  };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
}

const SCRIPT_ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  "'": '\\u0027',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * The JSON of the page configuration with keys sorted (as Go's encoder writes maps), safe inside
 * an inline script: `<`, `>` and `&` cannot close the element or open a comment, U+2028/2029 cannot
 * end a line in older parsers, and `'` is escaped as upstream does (as \u0027, which keeps it JSON).
 */
export function pageConfigJson(config: PageConfig): string {
  return JSON.stringify(sortKeys(config)).replace(/[<>&'\u2028\u2029]/g, (c) => SCRIPT_ESCAPES[c] ?? c);
}
