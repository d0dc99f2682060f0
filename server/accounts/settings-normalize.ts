import { DEFAULT_TUS, HOOK_EVENTS } from '../state/initial';
import { createModes } from '../state/modes';
import type { Settings } from '../state/schema';

export const DEFAULT_MIN_PASSWORD_LENGTH = 12;
export const DEFAULT_HOME_BASE = '/users';
export const DEFAULT_LOGOUT_PAGE = '/login';

/** Every before_/after_ hook key present, keeping existing lists (api.md §3.3). */
function withHookKeys(commands: Record<string, string[]> | null | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(commands ?? {})) out[k] = Array.isArray(v) ? [...v] : [];
  for (const evt of HOOK_EVENTS) {
    out[`before_${evt}`] ??= [];
    out[`after_${evt}`] ??= [];
  }
  return out;
}

/** Settings as read (api.md §7): zero values replaced by their defaults. Returns a new object. */
export function effectiveSettings(s: Settings): Settings {
  const tusUnset = !s.tus || (!s.tus.chunkSize && !s.tus.retryCount);
  return {
    ...s,
    userHomeBasePath: s.userHomeBasePath || DEFAULT_HOME_BASE,
    logoutPage: s.logoutPage || DEFAULT_LOGOUT_PAGE,
    tus: tusUnset ? { ...DEFAULT_TUS } : { ...s.tus },
    minimumPasswordLength: s.minimumPasswordLength || DEFAULT_MIN_PASSWORD_LENGTH,
    ...createModes(s),
    commands: withHookKeys(s.commands),
    shell: s.shell ?? [],
    rules: s.rules ?? [],
  };
}

/** Normalisation applied when settings are saved (api.md §3.3): empty values get their save defaults. */
export function normalizeOnSave(s: Settings): Settings {
  return {
    ...s,
    defaults: {
      ...s.defaults,
      locale: s.defaults.locale || 'en',
      viewMode: s.defaults.viewMode || 'mosaic',
      commands: s.defaults.commands ?? [],
    },
    rules: s.rules ?? [],
    shell: s.shell ?? [],
    commands: withHookKeys(s.commands),
  };
}
