import { httpUrlOrEmpty } from '../server/lib/http-url';
import { autherFor } from '../server/setup/config-transfer';
import type { Auther, Settings } from '../server/state/schema';
import { CliError, UsageError } from './io';
import type { FlagValues } from './values';

type Setter = (s: Settings, f: FlagValues) => void;

/** --branding.issueTracker: empty, or an http(s) address (the UI opens it as a link). */
function issueTracker(f: FlagValues): string {
  const raw = f.string('branding.issueTracker');
  const address = httpUrlOrEmpty(raw);
  if (address === undefined) throw new UsageError(`invalid value "${raw}" for --branding.issueTracker: expected an http:// or https:// address, or ""`);
  return address;
}

/** How each settings flag of flags.ts (SETTINGS_FLAGS) lands in the stored settings. */
const SETTERS: Record<string, Setter> = {
  signup: (s, f) => { s.signup = f.bool('signup'); },
  hideLoginButton: (s, f) => { s.hideLoginButton = f.bool('hideLoginButton'); },
  createUserDir: (s, f) => { s.createUserDir = f.bool('createUserDir'); },
  userHomeBasePath: (s, f) => { s.userHomeBasePath = f.string('userHomeBasePath') || '/users'; },
  minimumPasswordLength: (s, f) => { s.minimumPasswordLength = f.number('minimumPasswordLength'); },
  activityDays: (s, f) => { s.activityDays = f.number('activityDays'); },
  // "sh -c" becomes ["sh", "-c"] (api.md §7).
  shell: (s, f) => { s.shell = f.string('shell').split(' ').filter((w) => w !== ''); },
  fileMode: (s, f) => { s.fileMode = f.number('fileMode'); },
  dirMode: (s, f) => { s.dirMode = f.number('dirMode'); },
  'auth.logoutPage': (s, f) => { s.logoutPage = f.string('auth.logoutPage') || '/login'; },
  'branding.name': (s, f) => { s.branding.name = f.string('branding.name'); },
  'branding.theme': (s, f) => { s.branding.theme = f.string('branding.theme'); },
  'branding.color': (s, f) => { s.branding.color = f.string('branding.color'); },
  'branding.files': (s, f) => { s.branding.files = f.string('branding.files'); },
  'branding.disableExternal': (s, f) => { s.branding.disableExternal = f.bool('branding.disableExternal'); },
  'branding.disableUsedPercentage': (s, f) => { s.branding.disableUsedPercentage = f.bool('branding.disableUsedPercentage'); },
  'branding.issueTracker': (s, f) => { s.branding.issueTracker = issueTracker(f); },
  'tus.chunkSize': (s, f) => { s.tus.chunkSize = f.number('tus.chunkSize'); },
  'tus.retryCount': (s, f) => { s.tus.retryCount = f.number('tus.retryCount'); },
};

/** Writes the settings flags into settings; with `onlySet` only the flags given explicitly. */
export function applySettingsFlags(settings: Settings, flags: FlagValues, onlySet: boolean): void {
  for (const [name, set] of Object.entries(SETTERS)) {
    if (flags.has(name) && (!onlySet || flags.isSet(name))) set(settings, flags);
  }
}

const AUTH_FLAGS = ['auth.method', 'auth.header', 'auth.command', 'recaptcha.host', 'recaptcha.key', 'recaptcha.secret'];

/** The flag's value when given, even empty (`--recaptcha.key ""` turns reCAPTCHA off); else the stored one. */
function given(flags: FlagValues, name: string, stored: string | undefined): string {
  return flags.isSet(name) ? flags.string(name) : stored ?? flags.string(name);
}

/**
 * The auth method and auther after the auth flags (api.md §10.2): values not given are taken
 * from the stored auther; proxy needs a header, hook a command; reCAPTCHA is kept only with
 * both a key and a secret. With `onlySet` and no auth flag given, nothing changes.
 */
export function applyAuthFlags(current: { method: string; auther: Auther }, flags: FlagValues, onlySet: boolean): { method: string; auther: Auther } {
  if (onlySet && !AUTH_FLAGS.some((n) => flags.isSet(n))) return current;
  const method = onlySet && !flags.isSet('auth.method') ? current.method : flags.string('auth.method');
  const old = current.auther;
  if (method === 'proxy') {
    const header = given(flags, 'auth.header', old.header);
    if (header === '') throw new CliError('auth.method proxy needs --auth.header (the header holding the user name)');
    return { method, auther: { header } };
  }
  if (method === 'hook') {
    const command = given(flags, 'auth.command', old.command);
    if (command === '') throw new CliError('auth.method hook needs --auth.command (the program that checks sign-ins)');
    return { method, auther: { command } };
  }
  if (method !== 'json') return { method, auther: autherFor(method, old) };
  const key = given(flags, 'recaptcha.key', old.recaptcha?.key);
  const secret = given(flags, 'recaptcha.secret', old.recaptcha?.secret);
  const host = flags.isSet('recaptcha.host') || !old.recaptcha ? flags.string('recaptcha.host') : old.recaptcha.host;
  return { method, auther: { recaptcha: key !== '' && secret !== '' ? { host, key, secret } : null } };
}
