import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SettingsInput, SettingsView } from '../../contract/settings';
import { fullPerms } from '../../accounts/records';
import { effectiveSettings, normalizeOnSave } from '../../accounts/settings-normalize';
import type { ServerConfig } from '../../config';
import { AppError } from '../../errors';
import { httpUrlOrEmpty } from '../../lib/http-url';
import { isWithin } from '../../lib/within';
import { validateRules } from '../../rules/rules';
import { DEFAULT_ACTIVITY_DAYS } from '../../state/initial';
import type { Branding, Settings, UserDefaults, UserRecord } from '../../state/schema';
import type { Store } from '../../state/store';
import { trashSettingsOf } from '../../state/trash-records';

export interface SettingsServiceDeps {
  store: Store;
  config: Pick<ServerConfig, 'root'>;
}

export interface SettingsService {
  /** GET /api/settings: the settings as read, with their defaults, without the key. */
  get(): SettingsView;
  /** PUT /api/settings: replaces the editable settings (api.md §3.3, §14). */
  replace(caller: UserRecord, body: SettingsInput | undefined): Promise<void>;
}

/** The wire view: the fields of api.md §3.3 only (never the key, logout page or file modes). */
export function settingsView(s: Settings): SettingsView {
  const e = effectiveSettings(s);
  return {
    signup: e.signup,
    hideLoginButton: e.hideLoginButton,
    createUserDir: e.createUserDir,
    minimumPasswordLength: e.minimumPasswordLength,
    userHomeBasePath: e.userHomeBasePath,
    defaults: structuredClone(e.defaults),
    authMethod: e.authMethod || 'json',
    rules: structuredClone(e.rules),
    branding: { ...e.branding },
    tus: { ...e.tus },
    shell: [...e.shell],
    commands: structuredClone(e.commands),
    activityDays: s.activityDays ?? DEFAULT_ACTIVITY_DAYS,
    requireTotp: s.requireTotp === true,
    trash: trashSettingsOf(s),
  };
}

function defaultsFrom(d: SettingsInput['defaults']): UserDefaults {
  return {
    scope: d?.scope ?? '',
    locale: d?.locale ?? '',
    viewMode: d?.viewMode ?? '',
    singleClick: d?.singleClick ?? false,
    redirectAfterCopyMove: d?.redirectAfterCopyMove ?? false,
    sorting: { by: d?.sorting?.by ?? '', asc: d?.sorting?.asc ?? false },
    perm: fullPerms(d?.perm),
    commands: d?.commands ?? [],
    hideDotfiles: d?.hideDotfiles ?? false,
    dateFormat: d?.dateFormat ?? false,
    aceEditorTheme: d?.aceEditorTheme ?? '',
  };
}

/**
 * Branding from the body: filebrowser's fields as api.md §3.3 (missing = zero value); the issue
 * tracker, which filebrowser's clients do not know, is kept when missing and must be http(s).
 */
function brandingFrom(current: Branding, b: Partial<Branding> | undefined): Branding {
  let issueTracker = current.issueTracker;
  if (b?.issueTracker !== undefined) {
    const address = httpUrlOrEmpty(b.issueTracker);
    if (address === undefined) throw new AppError('bad_request', 'branding.issueTracker must be an http:// or https:// address, or empty');
    issueTracker = address;
  }
  return {
    name: b?.name ?? '', disableExternal: b?.disableExternal ?? false, disableUsedPercentage: b?.disableUsedPercentage ?? false,
    files: b?.files ?? '', theme: b?.theme ?? '', color: b?.color ?? '', issueTracker,
  };
}

/** The copy of api.md §3.3: editable fields from the body (missing = zero value), the rest kept. */
function merged(current: Settings, body: SettingsInput): Settings {
  const commands: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(body.commands ?? {})) commands[k] = v ?? [];
  return normalizeOnSave({
    ...current,
    signup: body.signup ?? false,
    createUserDir: body.createUserDir ?? false,
    minimumPasswordLength: body.minimumPasswordLength ?? 0,
    userHomeBasePath: body.userHomeBasePath ?? '',
    defaults: defaultsFrom(body.defaults),
    rules: body.rules ?? [],
    branding: brandingFrom(current.branding, body.branding),
    tus: { chunkSize: body.tus?.chunkSize ?? 0, retryCount: body.tus?.retryCount ?? 0 },
    shell: body.shell ?? [],
    commands,
    hideLoginButton: body.hideLoginButton ?? false,
    activityDays: body.activityDays ?? current.activityDays ?? DEFAULT_ACTIVITY_DAYS,
    // filebrowser's clients do not know it: kept when missing.
    requireTotp: body.requireTotp ?? current.requireTotp ?? false,
    trash: { ...trashSettingsOf(current), ...body.trash },
  });
}

/** Commands compared as sets of non-empty lists by key: key order and empty lists do not matter. */
function canonicalCommands(commands: Record<string, string[]>): string {
  return JSON.stringify(Object.entries(commands).filter(([, v]) => v.length > 0).sort(([a], [b]) => a.localeCompare(b)));
}

/** Refuses (400) a branding directory inside the served root: users could plant its files (api.md §14). */
async function assertBrandingOutsideRoot(files: string, root: string): Promise<void> {
  if (files.trim() === '') return;
  const real = async (p: string): Promise<string> => realpath(p).catch(() => resolve(p));
  const [dir, top] = await Promise.all([real(resolve(files)), real(resolve(root))]);
  if (isWithin(top, dir)) {
    throw new AppError('bad_request', 'branding.files must not lie inside the served root');
  }
}

async function replace(deps: SettingsServiceDeps, caller: UserRecord, body: SettingsInput | undefined): Promise<void> {
  if (!body || typeof body !== 'object') throw new AppError('bad_request', 'empty request');
  validateRules(body.rules ?? []);
  const current = effectiveSettings(deps.store.data().settings);
  const next = merged(deps.store.data().settings, body);
  // Programs run on the host: an admin without `execute` must not be able to set them.
  const programsChanged = JSON.stringify(next.shell) !== JSON.stringify(current.shell) || canonicalCommands(next.commands) !== canonicalCommands(current.commands);
  if (programsChanged && !caller.perm.execute) throw new AppError('forbidden');
  await assertBrandingOutsideRoot(next.branding.files, deps.config.root);
  await deps.store.update((db) => {
    db.settings = { ...next, key: db.settings.key, authMethod: db.settings.authMethod, logoutPage: db.settings.logoutPage };
  });
}

/** Settings API (api.md §3.3, §7): read with defaults, replace with normalisation and checks. */
export function createSettingsService(deps: SettingsServiceDeps): SettingsService {
  return {
    get: () => settingsView(deps.store.data().settings),
    replace: (caller, body) => replace(deps, caller, body),
  };
}
