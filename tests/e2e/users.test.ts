import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, type ApiClient } from './support/session';
import {
  card, createUserByApi, errorNotices, patchSettings, PERMISSION_NAMES, readSettings, strongPassword, successNotice, type StoredUser,
} from './support/settings';

// User Management and User edit (product.md §2 "User list", "User edit", §4 "User edit",
// §5 "User edit", §8 "Deleting a user that fails with 403 shows the forbidden message").

const OTHER_PERMISSIONS = Object.entries(PERMISSION_NAMES).filter(([key]) => key !== 'admin').map(([, name]) => name);
const LOCK = 'Prevent the user from changing the password';

async function openUser(page: Page, url: string, id: number | 'new'): Promise<void> {
  await page.goto(`${url}/settings/users/${id}`);
  await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
}

async function userById(api: ApiClient, id: number): Promise<StoredUser> {
  return api.json<StoredUser>(`/api/users/${id}`);
}

/** The text of the cell of `row` under the column headed `header`. */
async function cellUnder(page: Page, row: Locator, header: string): Promise<string> {
  const headers = (await page.getByRole('columnheader').allTextContents()).map((h) => h.trim());
  const index = headers.indexOf(header);
  expect(index).toBeGreaterThanOrEqual(0);
  const cells = await row.getByRole('cell').allTextContents();
  return (cells[index] ?? '').trim();
}

describe('User Management', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startServer({ args: ['--disableExec=false'] });
    browser = await launchBrowser();
    // A local server answers at once: a missing control fails in seconds rather than half a minute.
    browser.page.setDefaultTimeout(10_000);
    api = await apiAs(server);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('lists the users with Yes or No in the admin column, and New opens the new-user form', async () => {
    const { page } = browser;
    await createUserByApi(api, server.password, { username: 'nora', password: strongPassword('nora') });
    await page.goto(`${server.url}/settings/users`);
    const table = page.getByRole('table');
    const adminRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'admin', exact: true }) });
    await adminRow.waitFor();
    expect(await cellUnder(page, adminRow, 'Admin')).toBe('Yes');
    const noraRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'nora', exact: true }) });
    expect(await cellUnder(page, noraRow, 'Admin')).toBe('No');
    await screenshot(page, 'users-list');

    await page.getByRole('link', { name: 'New', exact: true }).or(page.getByRole('button', { name: 'New', exact: true })).click();
    await page.waitForURL(/\/settings\/users\/new$/);
    await page.getByRole('textbox', { name: 'Username', exact: true }).waitFor();
  });

  it('creates a user with the form and opens its page; a wrong "Your password" is refused with the reason', async () => {
    const { page } = browser;
    const password = strongPassword('carol');
    await openUser(page, server.url, 'new');
    // Home folders are off by default (api.md §7): the box is not offered.
    expect(await page.getByRole('checkbox', { name: 'Create a home folder', exact: true }).count()).toBe(0);
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill('carol');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('textbox', { name: 'Scope', exact: true }).fill('/carol-space');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('fr');
    await page.getByRole('checkbox', { name: 'Delete files and folders', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'Share files', exact: true }).uncheck();

    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(`${server.password}-wrong`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const refused = errorNotices(page).filter({ hasText: 'The current password is incorrect.' });
    await refused.waitFor();
    expect((await api.json<StoredUser[]>('/api/users')).map((u) => u.username)).not.toContain('carol');
    await refused.getByRole('button', { name: 'Close', exact: true }).click();
    await refused.waitFor({ state: 'detached' });

    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await successNotice(page, 'User created!').waitFor();
    await page.waitForURL(/\/settings\/users\/\d+$/);
    const id = Number(/\/settings\/users\/(\d+)$/.exec(page.url())?.[1]);

    const carol = await userById(api, id);
    expect(carol).toMatchObject({
      username: 'carol',
      scope: '/carol-space',
      locale: 'fr',
      perm: { admin: false, create: true, delete: false, download: true, modify: true, execute: true, rename: true, share: false },
    });
    expect(statSync(join(server.sandbox.root, 'carol-space')).isDirectory()).toBe(true);
    await apiAs(server, 'carol', password);
    // The page now edits carol: her values are in the form.
    expect(await page.getByRole('textbox', { name: 'Username', exact: true }).inputValue()).toBe('carol');
    expect(await page.getByRole('checkbox', { name: 'Delete files and folders', exact: true }).isChecked()).toBe(false);
  });

  it('ticks and disables every permission with Administrator, and leaves them ticked but enabled without it', async () => {
    const { page } = browser;
    await openUser(page, server.url, 'new');
    await page.getByRole('checkbox', { name: LOCK, exact: true }).check();
    await page.getByRole('checkbox', { name: 'Delete files and folders', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'Download', exact: true }).uncheck();

    await page.getByRole('checkbox', { name: 'Administrator', exact: true }).check();
    for (const name of OTHER_PERMISSIONS) {
      const box = page.getByRole('checkbox', { name, exact: true });
      expect({ name, checked: await box.isChecked(), disabled: await box.isDisabled() }).toEqual({ name, checked: true, disabled: true });
    }
    const lock = page.getByRole('checkbox', { name: LOCK, exact: true });
    expect({ checked: await lock.isChecked(), disabled: await lock.isDisabled() }).toEqual({ checked: false, disabled: true });
    await screenshot(page, 'users-new-administrator');

    await page.getByRole('checkbox', { name: 'Administrator', exact: true }).uncheck();
    for (const name of OTHER_PERMISSIONS) {
      const box = page.getByRole('checkbox', { name, exact: true });
      expect({ name, checked: await box.isChecked(), disabled: await box.isDisabled() }).toEqual({ name, checked: true, disabled: false });
    }
    expect({ checked: await lock.isChecked(), disabled: await lock.isDisabled() }).toEqual({ checked: false, disabled: false });
  });

  it('offers "Create a home folder" for new users when home folders are on, and creates the user there', async () => {
    const { page } = browser;
    await patchSettings(api, (s) => ({ ...s, createUserDir: true }));
    const { defaults, userHomeBasePath } = await readSettings(api);
    await openUser(page, server.url, 'new');
    const home = page.getByRole('checkbox', { name: 'Create a home folder', exact: true });
    const scope = page.getByRole('textbox', { name: 'Scope', exact: true });
    expect(await home.isChecked()).toBe(true);
    expect({ value: await scope.inputValue(), disabled: await scope.isDisabled() }).toEqual({ value: '', disabled: true });

    await home.uncheck();
    expect({ value: await scope.inputValue(), disabled: await scope.isDisabled() }).toEqual({ value: defaults.scope, disabled: false });
    await home.check();
    expect({ value: await scope.inputValue(), disabled: await scope.isDisabled() }).toEqual({ value: '', disabled: true });

    await page.getByRole('textbox', { name: 'Username', exact: true }).fill('dora');
    await page.getByLabel('Password', { exact: true }).fill(strongPassword('dora'));
    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await successNotice(page, 'User created!').waitFor();
    await page.waitForURL(/\/settings\/users\/\d+$/);
    const id = Number(/\/settings\/users\/(\d+)$/.exec(page.url())?.[1]);
    const dora = await userById(api, id);
    expect(dora.scope).toBe(`${userHomeBasePath}/dora`);
    expect(statSync(join(server.sandbox.root, ...dora.scope.split('/').filter(Boolean))).isDirectory()).toBe(true);
    // An existing user's page never offers it.
    expect(await page.getByRole('checkbox', { name: 'Create a home folder', exact: true }).count()).toBe(0);
    await patchSettings(api, (s) => ({ ...s, createUserDir: false }));
  });

  it('keeps the password when the Password field is left blank, and saves the other changes', async () => {
    const { page } = browser;
    const password = strongPassword('eve');
    const id = await createUserByApi(api, server.password, { username: 'eve', password, scope: '/' });
    await openUser(page, server.url, id);
    const field = page.getByLabel('Password', { exact: true });
    expect(await field.inputValue()).toBe('');
    expect(await field.getAttribute('placeholder')).toBe('leave blank to avoid changes');
    await page.getByRole('textbox', { name: 'Scope', exact: true }).fill('/eve-elsewhere');
    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await successNotice(page, 'User updated!').waitFor();

    expect((await userById(api, id)).scope).toBe('/eve-elsewhere');
    await apiAs(server, 'eve', password);
  });

  it('saves the Commands field as a list of words', async () => {
    const { page } = browser;
    const id = await createUserByApi(api, server.password, { username: 'cmd', password: strongPassword('cmd'), scope: '/' });
    await openUser(page, server.url, id);
    await page.getByRole('textbox', { name: 'Commands', exact: true }).fill('ls  echo');
    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await successNotice(page, 'User updated!').waitFor();
    expect((await userById(api, id)).commands).toEqual(['ls', 'echo']);
  });

  it('asks before deleting a user: Cancel keeps it, Delete removes it and returns to the list', async () => {
    const { page } = browser;
    const id = await createUserByApi(api, server.password, { username: 'fred', password: strongPassword('fred'), scope: '/' });
    await openUser(page, server.url, id);
    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user', exact: true });
    await dialog.waitFor();
    await dialog.getByText('Are you sure you want to delete this user?', { exact: true }).waitFor();
    // Someone else's account: no warning about signing oneself out.
    expect(await dialog.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'users-delete-dialog');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api.call('GET', `/api/users/${id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await successNotice(page, 'User deleted!').waitFor();
    await page.waitForURL(/\/settings\/users$/);
    expect((await api.call('GET', `/api/users/${id}`)).status).toBe(404);
    await page.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'fred', exact: true }).count()).toBe(0);
  });

  it('warns before deleting one\'s own account, then signs out to /login', async () => {
    const password = strongPassword('gina');
    const id = await createUserByApi(api, server.password, {
      username: 'gina',
      password,
      scope: '/',
      perm: { admin: true, create: true, delete: true, download: true, modify: true, execute: true, rename: true, share: true },
    });
    const own = await launchBrowser();
    own.page.setDefaultTimeout(10_000);
    try {
      const { page } = own;
      await signIn(page, server, { username: 'gina', password });
      await openUser(page, server.url, id);
      await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(password);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete user', exact: true });
      await dialog.getByRole('alert').waitFor();
      expect(await dialog.getByRole('alert').textContent()).not.toBe('');
      await dialog.getByText('Are you sure you want to delete this user?', { exact: true }).waitFor();
      await screenshot(page, 'users-delete-self-dialog');
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForURL(/\/login(\?.*)?$/);
      await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    } finally {
      await own.close();
    }
    expect((await api.call('GET', `/api/users/${id}`)).status).toBe(404);
  });

  it('refuses to delete the only administrator with the forbidden notice', async () => {
    const { page } = browser;
    const admins = (await api.json<StoredUser[]>('/api/users')).filter((u) => u.perm.admin);
    expect(admins.map((u) => u.username)).toEqual(['admin']);
    const id = admins[0]?.id ?? 0;
    await openUser(page, server.url, id);
    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete user', exact: true });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const refused = errorNotices(page).filter({ hasText: "You don't have permissions to access this." });
    await refused.waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${server.url}/settings/users/${id}`);
    expect((await api.call('GET', `/api/users/${id}`)).status).toBe(200);
    await screenshot(page, 'users-delete-last-admin');
  });

  it('opens the new-user form with the settings just saved on Global Settings, without a reload', async () => {
    const { page } = browser;
    const before = await readSettings(api);
    expect(before.createUserDir).toBe(false);
    await page.goto(`${server.url}/settings/users`);
    await page.getByRole('link', { name: 'New', exact: true }).or(page.getByRole('button', { name: 'New', exact: true })).click();
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Create a home folder', exact: true }).count()).toBe(0);

    // Within the app (no page load): change the settings, then open the new-user form again.
    await page.getByRole('link', { name: 'Global Settings', exact: true }).click();
    const global = card(page, 'Global Settings');
    await global.getByRole('checkbox', { name: 'Create a home folder for each new user', exact: true }).check();
    const defaults = card(page, 'User defaults');
    await defaults.getByRole('textbox', { name: 'Scope', exact: true }).fill('/team');
    await defaults.getByRole('button', { name: 'Update', exact: true }).click();
    await successNotice(page, 'Settings updated!').waitFor();
    expect(await readSettings(api)).toMatchObject({ createUserDir: true, defaults: { scope: '/team' } });

    await page.getByRole('link', { name: 'User Management', exact: true }).click();
    await page.getByRole('link', { name: 'New', exact: true }).or(page.getByRole('button', { name: 'New', exact: true })).click();
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    const home = page.getByRole('checkbox', { name: 'Create a home folder', exact: true });
    expect(await home.count()).toBe(1);
    expect(await home.isChecked()).toBe(true);
    await home.uncheck();
    expect(await page.getByRole('textbox', { name: 'Scope', exact: true }).inputValue()).toBe('/team');
    await patchSettings(api, (s) => ({ ...s, createUserDir: before.createUserDir, defaults: { ...s.defaults, scope: before.defaults.scope } }));
  });
});
