import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, type ApiClient } from './support/session';
import { button, dialog, dialogButton, item, openFolder, selectedText, untilOnDisk, updateAdmin } from './support/files';

const TREE = {
  'rd/moved.txt': 'moved',
  'rd/copied.txt': 'copied',
  'rd/clash.txt': 'new',
  'rd/stay.txt': 'stay',
  'rd/into': null,
  'rd/dst/clash.txt': 'old',
};

function pickerOption(page: Page, dialogName: string, name: string): Locator {
  return dialog(page, dialogName).getByRole('listbox', { name: 'Folders', exact: true }).getByRole('option', { name, exact: true });
}

/** Selects `name`, opens the Move or Copy prompt, picks `folder` and confirms. */
async function transfer(page: Page, name: string, to: { action: 'Move' | 'Copy'; folder: string }): Promise<void> {
  const { action, folder } = to;
  await item(page, name).click();
  await selectedText(page, 1).waitFor();
  await button(page, action).click();
  await pickerOption(page, action, folder).click();
  await dialogButton(page, action, action).click();
}

describe('"Redirect after copy/move" (user setting redirectAfterCopyMove)', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  const disk = (rel: string): string => join(server.sandbox.root, rel);

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'list', redirectAfterCopyMove: true });
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('on: a move through the prompt goes to the destination folder', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/rd/', expect: 'moved.txt' });
    await transfer(page, 'moved.txt', { action: 'Move', folder: 'into' });
    await page.waitForURL(`${server.url}/files/rd/into/`);
    await item(page, 'moved.txt').waitFor();
    await untilOnDisk(disk('rd/into/moved.txt'));
    expect(existsSync(disk('rd/moved.txt'))).toBe(false);
  });

  it('on: a copy answered "Replace" in the name clash prompt goes to the destination folder too', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/rd/', expect: 'clash.txt' });
    await transfer(page, 'clash.txt', { action: 'Copy', folder: 'dst' });
    await dialogButton(page, 'Replace or rename', 'Replace').click();
    await page.waitForURL(`${server.url}/files/rd/dst/`);
    await item(page, 'clash.txt').waitFor();
    expect(readFileSync(disk('rd/dst/clash.txt'), 'utf8')).toBe('new');
  });

  it('off: a copy stays in the folder it was made from', async () => {
    const { page } = browser;
    await updateAdmin(api, { redirectAfterCopyMove: false });
    await openFolder(page, server, { folder: '/rd/', expect: 'copied.txt' });
    await transfer(page, 'copied.txt', { action: 'Copy', folder: 'into' });
    await untilOnDisk(disk('rd/into/copied.txt'));
    // The listing reloads after the copy: the selection is cleared, and the address is unchanged.
    await selectedText(page, 1).waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${server.url}/files/rd/`);
    await item(page, 'stay.txt').waitFor();
  });
});
