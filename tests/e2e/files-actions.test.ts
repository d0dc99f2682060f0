import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import {
  button, dialog, dialogButton, item, listbox, openFolder, selectedText, until, untilEnabled, untilOnDisk, updateAdmin,
} from './support/files';

const TREE = {
  'create': null,
  'ren/one.txt': 'first',
  'ren/two.txt': 'second',
  'del/d1.txt': '1',
  'del/d2.txt': '2',
  'del/d3.txt': '3',
  'tx/m1.txt': 'moved',
  'tx/c1.txt': 'copied',
  'tx/box/inner': null,
  'cf/a.txt': 'new a',
  'cf/b.txt': 'new b',
  'cf/c.txt': 'new c',
  'cf/dst/a.txt': 'old a',
  'cf/dst/b.txt': 'old b',
  'cf/dst/c.txt': 'old c',
  'clip/src/k1.txt': 'k1',
  'clip/src/k2.txt': 'k2',
  'clip/dst': null,
  'drag/dd.txt': 'dragged',
  'drag/into': null,
  'dl/one.txt': 'one',
  'dl/two.txt': 'two',
  'dl/sub/three.txt': 'three',
  'share/s.txt': 'shared',
  'look/Documents/a.txt': 'a',
  'look/Pictures': null,
  'look/notes.md': '# notes\n',
  'look/report-2024.pdf': 'x'.repeat(20_000),
  'look/todo.txt': 'buy milk\n',
};

interface StoredShare {
  hash: string;
  path: string;
  expire: number;
  hasPassword: boolean;
}

/** The picker of the Move or Copy dialog. */
function picker(page: Page, dialogName: string): Locator {
  return dialog(page, dialogName).getByRole('listbox', { name: 'Folders', exact: true });
}

function pickerOption(page: Page, dialogName: string, name: string): Locator {
  return picker(page, dialogName).getByRole('option', { name, exact: true });
}

function sidebarButton(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('button', { name, exact: true });
}

/** Clicks `control` and returns the download it starts. */
async function downloadBy(page: Page, control: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), control.click()]);
  return download;
}

/** Saves a download next to the sandbox and returns its path. */
async function saved(server: ServerHandle, download: Download): Promise<string> {
  const path = join(server.sandbox.dir, `download-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  return path;
}

/** Opens a dialog by a header action after selecting `names` (the first by click, the others by Ctrl+click). */
async function actOn(page: Page, names: string[], action: string): Promise<void> {
  for (const [i, name] of names.entries()) await item(page, name).click(i === 0 ? {} : { modifiers: ['Control'] });
  await selectedText(page, names.length).waitFor();
  await button(page, action).click();
}

describe('the files screen actions', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  const disk = (rel: string): string => join(server.sandbox.root, rel);
  const text = (rel: string): string => readFileSync(disk(rel), 'utf8');

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    api = await apiAs(server);
    // Quick setup turns "redirect after copy/move" on (api.md); these tests stay in the folder they
    // act in (the redirect has tests of its own, redirect-after-transfer.test.ts).
    await updateAdmin(api, { viewMode: 'list', sorting: { by: 'name', asc: false }, redirectAfterCopyMove: false });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('creates a folder and a file from the sidebar and opens them; names are trimmed', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/create/' });
    await sidebarButton(page, 'New folder').click();
    await dialog(page, 'New folder').getByRole('textbox', { name: 'Name', exact: true }).fill('newdir');
    await dialogButton(page, 'New folder', 'Create').click();
    await page.waitForURL(/\/files\/create\/newdir\/?$/);
    await page.getByText('It feels lonely here...', { exact: true }).waitFor();
    expect(statSync(disk('create/newdir')).isDirectory()).toBe(true);
    expect(await dialog(page, 'New folder').count()).toBe(0);

    await sidebarButton(page, 'New file').click();
    await dialog(page, 'New file').getByRole('textbox', { name: 'Name', exact: true }).fill('  x.txt  ');
    await dialogButton(page, 'New file', 'Create').click();
    await page.waitForURL(/\/files\/create\/newdir\/x\.txt$/);
    expect(readdirSync(disk('create/newdir'))).toEqual(['x.txt']);
    expect(text('create/newdir/x.txt')).toBe('');
  });

  it('refuses an empty or blank name with "The name must not be empty." and creates nothing', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/create/', expect: 'newdir' });
    for (const kind of ['New folder', 'New file']) {
      await sidebarButton(page, kind).click();
      const name = dialog(page, kind).getByRole('textbox', { name: 'Name', exact: true });
      for (const typed of ['', '   ']) {
        await name.fill(typed);
        await dialogButton(page, kind, 'Create').click();
        await dialog(page, kind).getByText('The name must not be empty.', { exact: true }).waitFor();
        expect(await dialog(page, kind).isVisible()).toBe(true);
      }
      await page.keyboard.press('Escape');
      await dialog(page, kind).waitFor({ state: 'hidden' });
    }
    expect(readdirSync(disk('create'))).toEqual(['newdir']);
    expect(page.url()).toMatch(/\/files\/create\/$/);
  });

  it('renames by F2 and by the "Rename" button', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/ren/', expect: 'one.txt' });
    await item(page, 'one.txt').click();
    await page.keyboard.press('F2');
    const name = dialog(page, 'Rename').getByRole('textbox', { name: 'Name', exact: true });
    expect(await name.inputValue()).toBe('one.txt');
    await name.fill('uno.txt');
    await dialogButton(page, 'Rename', 'Rename').click();
    await item(page, 'uno.txt').waitFor();
    expect(readdirSync(disk('ren')).sort()).toEqual(['two.txt', 'uno.txt']);
    expect(text('ren/uno.txt')).toBe('first');

    await actOn(page, ['two.txt'], 'Rename');
    await dialog(page, 'Rename').getByRole('textbox', { name: 'Name', exact: true }).fill('  dos.txt  ');
    await dialogButton(page, 'Rename', 'Rename').click();
    await item(page, 'dos.txt').waitFor();
    expect(readdirSync(disk('ren')).sort()).toEqual(['dos.txt', 'uno.txt']);
    expect(text('ren/dos.txt')).toBe('second');
  });

  it('deletes by the Delete key (Enter confirms) and by the "Delete" button; Cancel keeps the file', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/del/', expect: 'd1.txt' });
    await item(page, 'd1.txt').click();
    await page.keyboard.press('Delete');
    await dialogButton(page, 'Delete', 'Cancel').click();
    await dialog(page, 'Delete').waitFor({ state: 'hidden' });
    expect(existsSync(disk('del/d1.txt'))).toBe(true);

    await item(page, 'd1.txt').click();
    await page.keyboard.press('Delete');
    await dialog(page, 'Delete').waitFor();
    await page.keyboard.press('Enter');
    await untilOnDisk(disk('del/d1.txt'), false);
    await item(page, 'd1.txt').waitFor({ state: 'detached' });

    await actOn(page, ['d2.txt', 'd3.txt'], 'Delete');
    await dialogButton(page, 'Delete', 'Delete').click();
    await page.getByText('It feels lonely here...', { exact: true }).waitFor();
    expect(readdirSync(disk('del'))).toEqual([]);
  });

  it('moves and copies through the folder picker; Move is disabled on the current folder', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/tx/', expect: 'm1.txt' });
    await actOn(page, ['m1.txt'], 'Move');
    const move = dialogButton(page, 'Move', 'Move');
    await pickerOption(page, 'Move', 'box').waitFor();
    expect(await move.isDisabled()).toBe(true);
    await pickerOption(page, 'Move', 'box').dblclick();
    await pickerOption(page, 'Move', 'inner').waitFor();
    await untilEnabled(move);
    await dialogButton(page, 'Move', 'Up').click();
    await pickerOption(page, 'Move', 'box').waitFor();
    await untilEnabled(move, false);
    await pickerOption(page, 'Move', 'box').dblclick();
    await pickerOption(page, 'Move', 'inner').click();
    expect(await pickerOption(page, 'Move', 'inner').getAttribute('aria-selected')).toBe('true');
    await untilEnabled(move);
    await screenshot(page, 'files-move');
    await move.click();
    await untilOnDisk(disk('tx/box/inner/m1.txt'));
    expect(existsSync(disk('tx/m1.txt'))).toBe(false);
    expect(text('tx/box/inner/m1.txt')).toBe('moved');
    await item(page, 'm1.txt').waitFor({ state: 'detached' });

    await actOn(page, ['c1.txt'], 'Copy');
    await pickerOption(page, 'Copy', 'box').click();
    await dialogButton(page, 'Copy', 'Copy').click();
    await untilOnDisk(disk('tx/box/c1.txt'));
    expect(text('tx/box/c1.txt')).toBe('copied');
    expect(text('tx/c1.txt')).toBe('copied');
  });

  it('copies into the same folder keeping both, without asking', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/tx/', expect: 'c1.txt' });
    await actOn(page, ['c1.txt'], 'Copy');
    await pickerOption(page, 'Copy', 'box').waitFor();
    await dialogButton(page, 'Copy', 'Copy').click();
    await untilOnDisk(disk('tx/c1(1).txt'));
    await item(page, 'c1(1).txt').waitFor();
    expect(text('tx/c1(1).txt')).toBe('copied');
    expect(await dialog(page, 'Replace or rename').count()).toBe(0);
  });

  it('answers a name clash with Replace (overwrites), Rename (keeps both) or Cancel (changes nothing)', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/cf/', expect: 'a.txt' });
    await actOn(page, ['a.txt'], 'Move');
    await pickerOption(page, 'Move', 'dst').click();
    await dialogButton(page, 'Move', 'Move').click();
    await dialogButton(page, 'Replace or rename', 'Replace').click();
    await untilOnDisk(disk('cf/a.txt'), false);
    await until(() => text('cf/dst/a.txt') === 'new a', 'cf/dst/a.txt to be replaced');
    expect(readdirSync(disk('cf/dst')).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    await item(page, 'a.txt').waitFor({ state: 'detached' });

    await actOn(page, ['b.txt'], 'Copy');
    await pickerOption(page, 'Copy', 'dst').click();
    await dialogButton(page, 'Copy', 'Copy').click();
    await dialogButton(page, 'Replace or rename', 'Rename').click();
    await untilOnDisk(disk('cf/dst/b(1).txt'));
    expect(text('cf/dst/b(1).txt')).toBe('new b');
    expect(text('cf/dst/b.txt')).toBe('old b');
    expect(text('cf/b.txt')).toBe('new b');

    await actOn(page, ['c.txt'], 'Move');
    await pickerOption(page, 'Move', 'dst').click();
    await dialogButton(page, 'Move', 'Move').click();
    await dialogButton(page, 'Replace or rename', 'Cancel').click();
    await dialog(page, 'Replace or rename').waitFor({ state: 'hidden' });
    // The listing is fetched again from the server: c.txt is still here.
    await page.reload();
    await item(page, 'c.txt').waitFor();
    expect(text('cf/c.txt')).toBe('new c');
    expect(text('cf/dst/c.txt')).toBe('old c');
    expect(readdirSync(disk('cf/dst')).sort()).toEqual(['a.txt', 'b(1).txt', 'b.txt', 'c.txt']);
  });

  it('copies with Ctrl+C, cuts with Ctrl+X and pastes with Ctrl+V in another folder', async () => {
    const { page } = browser;
    const crumb = (name: string): Locator => page.getByRole('navigation', { name: 'Breadcrumbs', exact: true }).getByRole('link', { name, exact: true });
    const toDst = async (): Promise<void> => {
      await crumb('clip').click();
      await item(page, 'dst').dblclick();
      await page.waitForURL(/\/files\/clip\/dst\/$/);
    };
    await openFolder(page, server, { folder: '/clip/src/', expect: 'k1.txt' });
    expect(await button(page, 'Paste').count()).toBe(0);
    await item(page, 'k1.txt').click();
    await page.keyboard.press('Control+c');
    await button(page, 'Paste').waitFor();
    await toDst();
    await page.getByText('It feels lonely here...', { exact: true }).waitFor();
    await page.keyboard.press('Control+v');
    await item(page, 'k1.txt').waitFor();
    expect(text('clip/dst/k1.txt')).toBe('k1');
    expect(text('clip/src/k1.txt')).toBe('k1');
    // A copy stays in the clipboard: pasting again clashes and asks.
    await button(page, 'Paste').click();
    await dialogButton(page, 'Replace or rename', 'Cancel').click();
    await dialog(page, 'Replace or rename').waitFor({ state: 'hidden' });

    await crumb('clip').click();
    await item(page, 'src').dblclick();
    await item(page, 'k2.txt').click();
    await page.keyboard.press('Control+x');
    await toDst();
    await item(page, 'k1.txt').waitFor();
    await page.keyboard.press('Control+v');
    await item(page, 'k2.txt').waitFor();
    await untilOnDisk(disk('clip/src/k2.txt'), false);
    expect(text('clip/dst/k2.txt')).toBe('k2');
    // A cut is pasted once: the clipboard is empty afterwards.
    await button(page, 'Paste').waitFor({ state: 'detached' });
    expect(readdirSync(disk('clip/src'))).toEqual(['k1.txt']);
    expect(readdirSync(disk('clip/dst')).sort()).toEqual(['k1.txt', 'k2.txt']);
  });

  it('moves an item dragged onto a folder', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/drag/', expect: 'dd.txt' });
    await item(page, 'dd.txt').dragTo(item(page, 'into'));
    await untilOnDisk(disk('drag/into/dd.txt'));
    expect(existsSync(disk('drag/dd.txt'))).toBe(false);
    expect(text('drag/into/dd.txt')).toBe('dragged');
    await item(page, 'dd.txt').waitFor({ state: 'detached' });
  });

  it('downloads a selection as zip and tar.gz through the "Download" dialog', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/dl/', expect: 'one.txt' });
    await actOn(page, ['sub', 'one.txt'], 'Download');
    const zip = await saved(server, await downloadBy(page, dialogButton(page, 'Download', 'zip')));
    await dialog(page, 'Download').waitFor({ state: 'hidden' });
    const zipped = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(zipped).toEqual(['one.txt', 'sub/', 'sub/three.txt']);
    expect(execFileSync('unzip', ['-p', zip, 'sub/three.txt'], { encoding: 'utf8' })).toBe('three');

    await button(page, 'Download').click();
    const download = await downloadBy(page, dialogButton(page, 'Download', 'tar.gz'));
    expect(download.suggestedFilename()).toBe('_dl.tar.gz');
    const tgz = await saved(server, download);
    const tarred = execFileSync('tar', ['-tzf', tgz], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(tarred).toEqual(['one.txt', 'sub/', 'sub/three.txt']);
  });

  it('downloads one selected file directly, without the dialog', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/dl/', expect: 'two.txt' });
    await item(page, 'two.txt').click();
    await selectedText(page, 1).waitFor();
    const download = await downloadBy(page, button(page, 'Download'));
    expect(download.suggestedFilename()).toBe('two.txt');
    expect(readFileSync(await saved(server, download), 'utf8')).toBe('two');
    expect(await dialog(page, 'Download').count()).toBe(0);
  });

  it('"Info" computes the SHA256 of the selected file', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/dl/', expect: 'one.txt' });
    await actOn(page, ['one.txt'], 'Info');
    await dialogButton(page, 'File information', 'SHA256').click();
    const sum = dialog(page, 'File information').getByLabel('SHA256', { exact: true });
    await sum.waitFor();
    expect((await sum.textContent())?.trim()).toBe(createHash('sha256').update(readFileSync(disk('dl/one.txt'))).digest('hex'));
    await dialogButton(page, 'File information', 'OK').click();
    await dialog(page, 'File information').waitFor({ state: 'hidden' });
  });

  it('shares a file for 2 hours with a trimmed password, then deletes the link', async () => {
    const { page } = browser;
    const links = async (): Promise<StoredShare[]> => api.json<StoredShare[]>('/api/share/share/s.txt');
    await openFolder(page, server, { folder: '/share/', expect: 's.txt' });
    await actOn(page, ['s.txt'], 'Share');
    const share = dialog(page, 'Share');
    const duration = share.getByRole('spinbutton', { name: 'Duration', exact: true });
    await duration.waitFor();
    expect(await share.getByRole('button', { name: 'Copy to clipboard', exact: true }).count()).toBe(0);
    await duration.fill('2');
    const unit = share.getByRole('combobox', { name: 'Unit', exact: true });
    expect(await unit.inputValue()).toBe('hours');
    expect(await unit.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)).toBe('Hours');
    await share.getByRole('textbox', { name: 'Password', exact: true }).fill(' secret ');
    const before = Math.floor(Date.now() / 1000);
    await dialogButton(page, 'Share', 'Share').click();
    await share.getByRole('button', { name: 'Copy to clipboard', exact: true }).waitFor();
    const after = Math.ceil(Date.now() / 1000);
    expect(await share.getByRole('button', { name: 'Copy to clipboard', exact: true }).count()).toBe(1);
    expect(await dialogButton(page, 'Share', 'New').isVisible()).toBe(true);
    expect(await dialogButton(page, 'Share', 'Close').isVisible()).toBe(true);
    await screenshot(page, 'files-share');

    const [link, ...others] = await links();
    expect(others).toEqual([]);
    expect(link).toMatchObject({ path: '/share/s.txt', hasPassword: true });
    expect(link?.expire).toBeGreaterThanOrEqual(before + 7200);
    expect(link?.expire).toBeLessThanOrEqual(after + 7200);
    // The password was trimmed: "secret" opens the link, " secret " does not.
    const open = (password: string): Promise<number> => fetch(`${server.url}/api/public/share/${link?.hash}`, {
      headers: { 'X-SHARE-PASSWORD': encodeURIComponent(password) },
    }).then((r) => r.status);
    expect(await open('secret')).toBe(200);
    expect(await open(' secret ')).toBe(401);

    await dialogButton(page, 'Share', 'Delete').click();
    await dialogButton(page, 'Delete share', 'Delete').click();
    await duration.waitFor();
    expect(await share.getByRole('button', { name: 'Copy to clipboard', exact: true }).count()).toBe(0);
    expect(await links()).toEqual([]);
    await dialogButton(page, 'Share', 'Cancel').click();
    await share.waitFor({ state: 'hidden' });
  });

  it('looks right in the list, mosaic and gallery views', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/look/', expect: 'todo.txt' });
    await item(page, 'notes.md').click();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'files-list');
    for (const [cls, name] of [['view-mosaic', 'files-mosaic'], ['view-mosaic-gallery', 'files-gallery'], ['view-list', '']]) {
      await button(page, 'Switch view').click();
      await page.locator(`.listing.${cls}`).waitFor();
      await item(page, 'todo.txt').waitFor();
      if (name) await screenshot(page, name);
    }
    expect(await listbox(page).getByRole('option').count()).toBe(5);
  });

  it('looks right on a phone, in dark and in Arabic (right to left)', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await openFolder(page, server, { folder: '/look/', expect: 'todo.txt' });
      await screenshot(page, 'files-phone');
      await page.evaluate(() => localStorage.setItem('filemgr.theme', 'dark'));
      await page.reload();
      await item(page, 'todo.txt').waitFor();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await screenshot(page, 'files-phone-dark');
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshot(page, 'files-list-dark');

      await updateAdmin(api, { locale: 'ar' });
      await page.reload();
      await page.waitForFunction(() => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar');
      await page.getByRole('option', { name: 'todo.txt', exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      await screenshot(page, 'files-list-ar');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'files-phone-ar');
    } finally {
      await updateAdmin(api, { locale: 'en' });
      await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('runs without a script error', () => {
    expect(problems).toEqual([]);
  });
});
