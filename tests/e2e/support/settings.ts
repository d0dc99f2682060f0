import type { Locator, Page, Response } from 'playwright-core';
import type { ApiClient } from './session';

/** A rule as GET /api/settings and GET /api/users/N return it (api.md §4.2). */
export interface StoredRule {
  allow: boolean;
  path: string;
  regex: boolean;
  regexp?: { raw: string } | null;
}

export interface StoredPermissions {
  admin: boolean;
  create: boolean;
  delete: boolean;
  download: boolean;
  modify: boolean;
  execute: boolean;
  rename: boolean;
  share: boolean;
}

/** GET /api/settings (api.md §3.3), the fields the tests read. */
export interface StoredSettings {
  signup: boolean;
  hideLoginButton: boolean;
  createUserDir: boolean;
  minimumPasswordLength: number;
  userHomeBasePath: string;
  defaults: {
    scope: string;
    locale: string;
    viewMode: string;
    singleClick: boolean;
    hideDotfiles: boolean;
    dateFormat: boolean;
    perm: StoredPermissions;
    commands: string[];
  };
  rules: StoredRule[];
  branding: { name: string; disableExternal: boolean; disableUsedPercentage: boolean; files: string; theme: string; issueTracker: string };
  tus: { chunkSize: number; retryCount: number };
  shell: string[];
  commands: Record<string, string[]>;
}

/** GET /api/users/N (api.md §3.2), the fields the tests read. */
export interface StoredUser {
  id: number;
  username: string;
  scope: string;
  locale: string;
  lockPassword: boolean;
  perm: StoredPermissions;
  commands: string[];
  rules: StoredRule[];
}

/** The English names of the permission checkboxes (ui.md "User edit"), by permission key. */
export const PERMISSION_NAMES: Record<keyof StoredPermissions, string> = {
  admin: 'Administrator',
  create: 'Create files and folders',
  delete: 'Delete files and folders',
  download: 'Download',
  modify: 'Edit files',
  execute: 'Execute commands',
  rename: 'Rename or move files and folders',
  share: 'Share files',
};

/** The settings card (a form) whose heading is `title`, e.g. "Global Settings" or "User defaults". */
export function card(page: Page, title: string): Locator {
  return page.locator('form').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** The success notice (role status) reading exactly `text`. */
export function successNotice(page: Page, text: string): Locator {
  return page.getByRole('status').filter({ hasText: text });
}

/** Every error notice (role alert) of the notice area, e.g. to check that none appeared. */
export function errorNotices(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications', exact: true }).getByRole('alert');
}

/** The page's next answer to `method` `path` (no query), e.g. to read the status and body of a save. */
export function nextResponse(page: Page, method: string, path: string): Promise<Response> {
  return page.waitForResponse((r) => r.request().method() === method && new URL(r.url()).pathname === path);
}

/** GET /api/settings. */
export function readSettings(api: ApiClient): Promise<StoredSettings> {
  return api.json<StoredSettings>('/api/settings');
}

/** Changes some settings through the API (PUT of the whole object, as the UI does). */
export async function patchSettings(api: ApiClient, patch: (s: StoredSettings) => StoredSettings): Promise<void> {
  const next = patch(await readSettings(api));
  const { status, text } = await api.call('PUT', '/api/settings', next);
  if (status !== 200) throw new Error(`PUT /api/settings answered ${status}: ${text}`);
}

/** Creates a user through the API (POST /api/users) with the default settings plus `extra`; resolves with its id. */
export async function createUserByApi(api: ApiClient, adminPassword: string, user: { username: string; password: string } & Record<string, unknown>): Promise<number> {
  const defaults = (await readSettings(api)).defaults;
  const data = { ...defaults, lockPassword: false, rules: [], ...user };
  const { status, text } = await api.call('POST', '/api/users', { what: 'user', which: [], current_password: adminPassword, data });
  if (status !== 201) throw new Error(`POST /api/users answered ${status}: ${text}`);
  const users = await api.json<StoredUser[]>('/api/users');
  const created = users.find((u) => u.username === user.username);
  if (!created) throw new Error(`user ${user.username} was not listed after creation`);
  return created.id;
}

/** A password long and random enough for every password rule of api.md §8.3. */
export function strongPassword(seed: string): string {
  return `${seed}-Qx7!vLm2#pR9zT`;
}
