import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, type ApiClient } from './support/session';
import { card, errorNotices, nextResponse, readSettings, successNotice } from './support/settings';

// Global Settings (product.md §2 "Global settings", §3 "Global settings", §5 "Global settings").

async function openGlobal(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/settings/global`);
  await card(page, 'Global Settings').getByRole('button', { name: 'Update', exact: true }).waitFor();
}

describe('Global Settings with the command runner enabled', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let branding: string;

  beforeAll(async () => {
    server = await startServer({ args: ['--disableExec=false'] });
    browser = await launchBrowser();
    // A local server answers at once: a missing control fails in seconds rather than half a minute.
    browser.page.setDefaultTimeout(10_000);
    api = await apiAs(server);
    branding = join(server.sandbox.dir, 'branding');
    await mkdir(branding);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('names every field exactly as ui.md does (a hint is a description, not part of the name)', async () => {
    const { page } = browser;
    await openGlobal(page, server.url);
    await card(page, 'Command runner').getByRole('button', { name: 'Update', exact: true }).waitFor();
    const expected: [string, 'textbox' | 'checkbox' | 'combobox'][] = [
      ['Allow users to sign up', 'checkbox'], ['Create a home folder for each new user', 'checkbox'],
      ['Hide the login button on public pages', 'checkbox'], ['Base path of user home folders', 'textbox'],
      ['Minimum password length', 'textbox'], ['Instance name', 'textbox'], ['Theme', 'combobox'],
      ['Branding directory path', 'textbox'], ['Issue tracker address', 'textbox'], ['Disable external links', 'checkbox'], ['Hide the used disk space', 'checkbox'],
      ['Chunk size', 'textbox'], ['Retry count', 'textbox'], ['Scope', 'textbox'], ['Language', 'combobox'], ['View mode', 'combobox'],
      ['Execute commands', 'checkbox'], ['Commands', 'textbox'], ['Shell', 'textbox'], ['before_save', 'textbox'], ['after_delete', 'textbox'],
    ];
    const found = await Promise.all(expected.map(async ([name, role]) => [name, await page.getByRole(role, { name, exact: true }).count()] as const));
    expect(Object.fromEntries(found)).toEqual(Object.fromEntries(expected.map(([name]) => [name, 1])));
  });

  it('saves every field of the Global Settings card and shows them again after a reload', async () => {
    const { page } = browser;
    const before = await readSettings(api);
    await openGlobal(page, server.url);
    const form = card(page, 'Global Settings');
    await form.getByRole('checkbox', { name: 'Allow users to sign up', exact: true }).setChecked(!before.signup);
    await form.getByRole('checkbox', { name: 'Create a home folder for each new user', exact: true }).setChecked(!before.createUserDir);
    await form.getByRole('checkbox', { name: 'Hide the login button on public pages', exact: true }).setChecked(!before.hideLoginButton);
    await form.getByRole('textbox', { name: 'Base path of user home folders', exact: true }).fill('/homes');
    await form.getByRole('textbox', { name: 'Minimum password length', exact: true }).fill('14');
    await form.getByRole('textbox', { name: 'Instance name', exact: true }).fill('Acme Files');
    await form.getByRole('combobox', { name: 'Theme', exact: true }).selectOption({ label: 'Dark' });
    await form.getByRole('textbox', { name: 'Branding directory path', exact: true }).fill(branding);
    await form.getByRole('textbox', { name: 'Issue tracker address', exact: true }).fill('https://git.example/acme/files/issues');
    await form.getByRole('checkbox', { name: 'Disable external links', exact: true }).setChecked(!before.branding.disableExternal);
    await form.getByRole('checkbox', { name: 'Hide the used disk space', exact: true }).setChecked(!before.branding.disableUsedPercentage);
    await form.getByRole('textbox', { name: 'Chunk size', exact: true }).fill('20MB');
    await form.getByRole('textbox', { name: 'Retry count', exact: true }).fill('3');

    const answer = nextResponse(page, 'PUT', '/api/settings');
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    expect((await answer).status()).toBe(200);
    await successNotice(page, 'Settings updated!').waitFor();

    const after = await readSettings(api);
    expect(after).toMatchObject({
      signup: !before.signup,
      createUserDir: !before.createUserDir,
      hideLoginButton: !before.hideLoginButton,
      userHomeBasePath: '/homes',
      minimumPasswordLength: 14,
      branding: {
        name: 'Acme Files',
        theme: 'dark',
        files: branding,
        issueTracker: 'https://git.example/acme/files/issues',
        disableExternal: !before.branding.disableExternal,
        disableUsedPercentage: !before.branding.disableUsedPercentage,
      },
      tus: { chunkSize: 20971520, retryCount: 3 },
    });

    await page.reload();
    await card(page, 'Global Settings').getByRole('button', { name: 'Update', exact: true }).waitFor();
    const again = card(page, 'Global Settings');
    expect(await again.getByRole('checkbox', { name: 'Allow users to sign up', exact: true }).isChecked()).toBe(!before.signup);
    expect(await again.getByRole('checkbox', { name: 'Create a home folder for each new user', exact: true }).isChecked()).toBe(!before.createUserDir);
    expect(await again.getByRole('checkbox', { name: 'Hide the login button on public pages', exact: true }).isChecked()).toBe(!before.hideLoginButton);
    expect(await again.getByRole('textbox', { name: 'Base path of user home folders', exact: true }).inputValue()).toBe('/homes');
    expect(await again.getByRole('textbox', { name: 'Minimum password length', exact: true }).inputValue()).toBe('14');
    expect(await again.getByRole('textbox', { name: 'Instance name', exact: true }).inputValue()).toBe('Acme Files');
    expect(await again.getByRole('combobox', { name: 'Theme', exact: true }).inputValue()).toBe('dark');
    expect(await again.getByRole('textbox', { name: 'Branding directory path', exact: true }).inputValue()).toBe(branding);
    expect(await again.getByRole('textbox', { name: 'Issue tracker address', exact: true }).inputValue()).toBe('https://git.example/acme/files/issues');
    expect(await again.getByRole('checkbox', { name: 'Disable external links', exact: true }).isChecked()).toBe(!before.branding.disableExternal);
    expect(await again.getByRole('checkbox', { name: 'Hide the used disk space', exact: true }).isChecked()).toBe(!before.branding.disableUsedPercentage);
    expect(await again.getByRole('textbox', { name: 'Chunk size', exact: true }).inputValue()).toBe('20MB');
    expect(await again.getByRole('textbox', { name: 'Retry count', exact: true }).inputValue()).toBe('3');
    // The instance name is the page title's suffix (product.md §2 "Guards").
    await page.waitForFunction(() => document.title.includes('Acme Files'));
    await screenshot(page, 'global-settings-saved');
  });

  it('reads "1.5g" as 1.5 GiB and an unreadable chunk size as 1 MB once typing stops', async () => {
    const { page } = browser;
    await openGlobal(page, server.url);
    const form = card(page, 'Global Settings');
    const chunk = form.getByRole('textbox', { name: 'Chunk size', exact: true });
    await chunk.fill('1.5g');
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    const saved = successNotice(page, 'Settings updated!');
    await saved.waitFor();
    expect((await readSettings(api)).tus.chunkSize).toBe(1610612736);
    // Success notices last a second (product.md §8); the next save's notice must be a new one.
    await saved.waitFor({ state: 'detached' });

    const typed = Date.now();
    await chunk.fill('lots');
    const handle = await chunk.elementHandle();
    await page.waitForFunction((input) => (input as HTMLInputElement).value === '1MB', handle, { timeout: 10_000 });
    // product.md §5: applied 1.5 s after typing stops, not at once.
    expect(Date.now() - typed).toBeGreaterThanOrEqual(1400);
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    await successNotice(page, 'Settings updated!').waitFor();
    expect((await readSettings(api)).tus.chunkSize).toBe(1048576);
  });

  it('saves the User defaults card', async () => {
    const { page } = browser;
    const before = await readSettings(api);
    expect(before.defaults.perm.delete).toBe(true);
    await openGlobal(page, server.url);
    const form = card(page, 'User defaults');
    await form.getByRole('textbox', { name: 'Scope', exact: true }).fill('/team');
    await form.getByRole('combobox', { name: 'Language', exact: true }).selectOption('de');
    await form.getByRole('combobox', { name: 'View mode', exact: true }).selectOption({ label: 'Mosaic gallery' });
    await form.getByRole('checkbox', { name: 'Hide dotfiles', exact: true }).setChecked(!before.defaults.hideDotfiles);
    await form.getByRole('checkbox', { name: 'Delete files and folders', exact: true }).uncheck();
    await form.getByRole('textbox', { name: 'Commands', exact: true }).fill('ls  echo');
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    await successNotice(page, 'Settings updated!').waitFor();

    const after = await readSettings(api);
    expect(after.defaults).toMatchObject({
      scope: '/team',
      locale: 'de',
      viewMode: 'mosaic gallery',
      hideDotfiles: !before.defaults.hideDotfiles,
      perm: { ...before.defaults.perm, delete: false },
      commands: ['ls', 'echo'],
    });
    // Saving one card saves the whole object: what the first card holds is unchanged.
    expect(after.branding).toEqual(before.branding);
    expect(after.tus).toEqual(before.tus);
  });

  it('saves the shell and the event commands of the Command runner card', async () => {
    const { page } = browser;
    await openGlobal(page, server.url);
    const form = card(page, 'Command runner');
    await form.getByRole('textbox', { name: 'Shell', exact: true }).fill('/bin/sh -c');
    await form.getByRole('textbox', { name: 'before_save', exact: true }).fill('echo one\n\necho two');
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    await successNotice(page, 'Commands updated').waitFor();

    const after = await readSettings(api);
    expect(after.shell).toEqual(['/bin/sh', '-c']);
    expect(after.commands.before_save).toEqual(['echo one', 'echo two']);
    expect(after.commands.after_save).toEqual([]);
    await screenshot(page, 'global-settings-command-runner');
  });

  it("shows the server's reason, translated, when it refuses a save (a branding directory inside the served root)", async () => {
    const { page } = browser;
    const inside = join(server.sandbox.root, 'brand');
    await mkdir(inside);
    const before = await readSettings(api);
    await openGlobal(page, server.url);
    const form = card(page, 'Global Settings');
    await form.getByRole('textbox', { name: 'Branding directory path', exact: true }).fill(inside);
    const answer = nextResponse(page, 'PUT', '/api/settings');
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    const response = await answer;
    expect(response.status()).toBe(400);
    const reason = (await response.text()).trim();
    expect(reason).toBe('400 Bad Request (branding.files must not lie inside the served root)');

    // The notice says it in a translated sentence, never the raw status line.
    const alert = errorNotices(page).filter({ hasText: 'The branding folder must not lie inside the served folder.' });
    await alert.waitFor();
    expect(await successNotice(page, 'Settings updated!').count()).toBe(0);
    expect((await readSettings(api)).branding.files).toBe(before.branding.files);
    await alert.getByRole('button', { name: 'Close', exact: true }).click();
    await alert.waitFor({ state: 'detached' });
  });
});

describe('Global Settings with the command runner disabled (the default)', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    // A local server answers at once: a missing control fails in seconds rather than half a minute.
    browser.page.setDefaultTimeout(10_000);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('has no Command runner card and no "Execute commands" or "Commands" field', async () => {
    const { page } = browser;
    await openGlobal(page, server.url);
    const defaults = card(page, 'User defaults');
    await defaults.getByRole('checkbox', { name: 'Delete files and folders', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Command runner', exact: true }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Shell', exact: true }).count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'Execute commands', exact: true }).count()).toBe(0);
    expect(await defaults.getByRole('textbox', { name: 'Commands', exact: true }).count()).toBe(0);

    await page.goto(`${server.url}/settings/users/new`);
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Delete files and folders', exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Execute commands', exact: true }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Commands', exact: true }).count()).toBe(0);
  });
});
