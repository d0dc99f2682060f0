import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { button, dialog, dialogButton, item, openFolder, selectedText, untilOnDisk, updateAdmin } from './support/files';
import { shootLooks } from './support/looks';

const TREE = {
  'pk/mover.txt': 'moved',
  'pk/copier.txt': 'copied',
  'pk/old': null,
};

function pickerOption(page: Page, dialogName: string, name: string): Locator {
  return dialog(page, dialogName).getByRole('listbox', { name: 'Folders', exact: true }).getByRole('option', { name, exact: true });
}

function nameField(page: Page, dialogName: string): Locator {
  return dialog(page, dialogName).getByRole('textbox', { name: 'Name', exact: true });
}

async function openTransfer(page: Page, name: string, action: 'Move' | 'Copy'): Promise<void> {
  await item(page, name).click();
  await selectedText(page, 1).waitFor();
  await button(page, action).click();
  await pickerOption(page, action, 'old').waitFor();
}

describe('"New folder" inside the move and copy picker', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  const disk = (rel: string): string => join(server.sandbox.root, rel);

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'list', sorting: { by: 'name', asc: true } });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('creates a folder by Enter (name trimmed), chooses it, and the move goes there', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/pk/', expect: 'mover.txt' });
    await openTransfer(page, 'mover.txt', 'Move');
    await dialogButton(page, 'Move', 'New folder').click();
    await nameField(page, 'Move').fill('  fresh  ');
    await nameField(page, 'Move').press('Enter');
    await pickerOption(page, 'Move', 'fresh').waitFor();
    expect(statSync(disk('pk/fresh')).isDirectory()).toBe(true);
    expect(await pickerOption(page, 'Move', 'fresh').getAttribute('aria-selected')).toBe('true');
    expect(await dialog(page, 'Move').isVisible()).toBe(true);
    expect(existsSync(disk('pk/mover.txt'))).toBe(true);
    await dialogButton(page, 'Move', 'Move').click();
    await untilOnDisk(disk('pk/fresh/mover.txt'));
    expect(readFileSync(disk('pk/fresh/mover.txt'), 'utf8')).toBe('moved');
  });

  it('creates by the "Create" button inside a subfolder; Esc closes the form, not the dialog; copy goes there', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/pk/', expect: 'copier.txt' });
    await openTransfer(page, 'copier.txt', 'Copy');
    await dialogButton(page, 'Copy', 'New folder').click();
    await nameField(page, 'Copy').fill('never');
    await nameField(page, 'Copy').press('Escape');
    await nameField(page, 'Copy').waitFor({ state: 'detached' });
    expect(await dialog(page, 'Copy').isVisible()).toBe(true);
    expect(existsSync(disk('pk/never'))).toBe(false);

    await pickerOption(page, 'Copy', 'old').dblclick();
    await dialog(page, 'Copy').getByText('/pk/old/', { exact: true }).waitFor();
    await dialogButton(page, 'Copy', 'New folder').click();
    await nameField(page, 'Copy').fill('deeper');
    await dialogButton(page, 'Copy', 'Create').click();
    await pickerOption(page, 'Copy', 'deeper').waitFor();
    await dialogButton(page, 'Copy', 'Copy').click();
    await untilOnDisk(disk('pk/old/deeper/copier.txt'));
    expect(readdirSync(disk('pk')).sort()).toEqual(['copier.txt', 'fresh', 'old']);
  });

  it('looks right in Arabic, light and dark, desktop and phone', async () => {
    const { page } = browser;
    const shots = await shootLooks(page, api, { name: 'picker-new-folder', locale: 'ar', show: async () => {
      await page.goto(`${server.url}/files/pk/`);
      await page.locator('[role="option"][data-path="/pk/copier.txt"]').click();
      await page.keyboard.press('Control+c');
      await page.locator('[role="option"][data-path="/pk/copier.txt"]').click({ button: 'right' });
      await page.locator('[role="menuitem"][data-action="copy"]').click();
      await page.locator('dialog .picker-item').first().waitFor();
      await page.locator('dialog .picker > .button-small').click();
      await page.locator('dialog .picker-new .input').fill('مجلد جديد');
    } });
    expect(shots).toHaveLength(4);
    expect(problems).toEqual([]);
  });
});
