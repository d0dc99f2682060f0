import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { dialog, dialogButton, item, openFolder, selectedText, until, untilOnDisk, updateAdmin } from './support/files';
import { shootLooks } from './support/looks';

const TREE = {
  'cm/alpha.txt': 'a',
  'cm/beta.txt': 'b',
  'cm/gamma.txt': 'c',
  'cm/sub': null,
  'touch/finger.txt': 'f',
};

/** The item actions of the toolbar (ui.md), which the context menu offers too. */
const ITEM_ACTIONS = ['Download', 'Info', 'Share', 'Rename', 'Copy', 'Move', 'Paste', 'Delete'];

function menu(page: Page): Locator {
  return page.getByRole('menu', { name: 'File actions', exact: true });
}

function menuItem(page: Page, name: string): Locator {
  return menu(page).getByRole('menuitem', { name, exact: true });
}

/** The names of the menu's items, with whether each is disabled. */
function menuState(page: Page): Promise<[string, boolean][]> {
  return menu(page).evaluate((m) => [...m.querySelectorAll('[role="menuitem"]')].map((e) =>
    [e.textContent ?? '', e.getAttribute('aria-disabled') === 'true'] as [string, boolean]));
}

/** The toolbar's item actions shown now, with whether each is disabled. */
async function toolbarState(page: Page): Promise<[string, boolean][]> {
  const bar = page.getByRole('toolbar', { name: 'File actions', exact: true });
  const state: [string, boolean][] = [];
  for (const name of ITEM_ACTIONS) {
    const control = bar.getByRole('button', { name, exact: true });
    if (await control.count()) state.push([name, await control.isDisabled()]);
  }
  return state;
}

/** The accessible name of the focused element. */
function focusedName(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? null);
}

describe('the context menu of the listing', () => {
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

  it('opens on a right-click, selects the item and offers what the toolbar offers; Rename renames', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/cm/', expect: 'alpha.txt' });
    await item(page, 'beta.txt').click({ button: 'right' });
    await menu(page).waitFor();
    expect(await item(page, 'beta.txt').getAttribute('aria-selected')).toBe('true');
    await selectedText(page, 1).waitFor();
    expect(await menuState(page)).toEqual(await toolbarState(page));
    expect(await focusedName(page)).toBe('Download');
    await menuItem(page, 'Rename').click();
    await menu(page).waitFor({ state: 'detached' });
    await dialog(page, 'Rename').getByRole('textbox', { name: 'Name', exact: true }).fill('bravo.txt');
    await dialogButton(page, 'Rename', 'Rename').click();
    await item(page, 'bravo.txt').waitFor();
    expect(readFileSync(disk('cm/bravo.txt'), 'utf8')).toBe('b');
    expect(existsSync(disk('cm/beta.txt'))).toBe(false);
  });

  it('keeps a selection of several items it is opened over: Rename is disabled, Copy copies them all', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/cm/', expect: 'alpha.txt' });
    await item(page, 'alpha.txt').click();
    await item(page, 'gamma.txt').click({ modifiers: ['Control'] });
    await item(page, 'gamma.txt').click({ button: 'right' });
    await menu(page).waitFor();
    await selectedText(page, 2).waitFor();
    expect(await menuState(page)).toEqual(await toolbarState(page));
    expect(await menuItem(page, 'Rename').getAttribute('aria-disabled')).toBe('true');
    await menuItem(page, 'Rename').click({ force: true });
    expect(await dialog(page, 'Rename').count()).toBe(0);
    await menuItem(page, 'Copy').click();
    const picker = dialog(page, 'Copy').getByRole('listbox', { name: 'Folders', exact: true });
    await picker.getByRole('option', { name: 'sub', exact: true }).click();
    await dialogButton(page, 'Copy', 'Copy').click();
    // The items are copied one request after another, in no promised order: wait for both.
    await untilOnDisk(disk('cm/sub/alpha.txt'));
    await untilOnDisk(disk('cm/sub/gamma.txt'));
    expect(readdirSync(disk('cm/sub')).sort()).toEqual(['alpha.txt', 'gamma.txt']);
  });

  it('opens from the keyboard (Shift+F10, the ContextMenu key); arrows move, Esc returns the focus, Enter acts', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/cm/', expect: 'alpha.txt' });
    await item(page, 'gamma.txt').click();
    await until(async () => (await focusedName(page)) === 'gamma.txt', 'the focus on gamma.txt');
    await page.keyboard.press('Shift+F10');
    await menu(page).waitFor();
    expect(await focusedName(page)).toBe('Download');
    await page.keyboard.press('ArrowDown');
    expect(await focusedName(page)).toBe('Info');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focusedName(page)).toBe('Delete');
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'detached' });
    expect(await focusedName(page)).toBe('gamma.txt');
    await selectedText(page, 1).waitFor();

    await page.keyboard.press('ContextMenu');
    await menu(page).waitFor();
    await page.keyboard.press('End');
    expect(await focusedName(page)).toBe('Delete');
    await page.keyboard.press('Enter');
    await dialog(page, 'Delete').waitFor();
    await page.keyboard.press('Enter');
    await untilOnDisk(disk('cm/gamma.txt'), false);
    await item(page, 'gamma.txt').waitFor({ state: 'detached' });
  });

  it('opens on a long press of a finger, without the tap also opening the item', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/touch/', expect: 'finger.txt' });
    const box = await item(page, 'finger.txt').boundingBox();
    if (!box) throw new Error('finger.txt has no box');
    const cdp = await page.context().newCDPSession(page);
    const at = { x: box.x + box.width / 3, y: box.y + box.height / 2, id: 0 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
    await menu(page).waitFor({ timeout: 3000 });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    expect(await item(page, 'finger.txt').getAttribute('aria-selected')).toBe('true');
    await menuItem(page, 'Info').click();
    await dialog(page, 'File information').waitFor();
    expect(page.url()).toMatch(/\/files\/touch\/$/);
    await dialogButton(page, 'File information', 'OK').click();
  });

  it('looks right in Arabic, light and dark, desktop and phone', async () => {
    const { page } = browser;
    const shots = await shootLooks(page, api, { name: 'context-menu', locale: 'ar', show: async () => {
      // The names of the listing are translated: the item is found by its path.
      await page.goto(`${server.url}/files/cm/`);
      await page.locator('[role="option"][data-path="/cm/alpha.txt"]').click({ button: 'right' });
      await page.getByRole('menu').waitFor();
    } });
    expect(shots).toHaveLength(4);
    expect(problems).toEqual([]);
  });
});
