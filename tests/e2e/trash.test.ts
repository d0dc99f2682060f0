import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { axeViolations } from './support/axe';
import { shootLooks } from './support/looks';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { dialog, dialogButton, item, openFolder, runAction, until, untilEnabled, untilOnDisk } from './support/files';
import { card, readSettings } from './support/settings';

// The recycle bin (beyond.md §3): delete -> Trash -> Restore, checked on disk.

const TREE = {
  'docs/report.txt': 'quarterly figures',
  'docs/notes.txt': 'notes',
  'docs/gone.txt': 'to be purged',
  'look/Holiday photos/beach.jpg': 'x'.repeat(40_000),
  'look/budget-2026.xlsx': 'y'.repeat(12_000),
  'look/a very long file name that goes on and on to test how the row wraps.txt': 'long',
};

interface TrashEntry {
  id: string;
  name: string;
  path: string;
}

function trashList(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Trash', exact: true });
}

function trashItem(page: Page, name: string): Locator {
  return trashList(page).getByRole('option', { name, exact: true });
}

describe('Trash', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  const disk = (rel: string): string => join(server.sandbox.root, rel);
  const trashDir = (): string => disk('.filemgr-trash/1');

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    api = await apiAs(server);
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('deletes into the trash ("Move to trash"), and Restore puts the file back on disk', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/docs/', expect: 'report.txt' });
    await item(page, 'report.txt').click();
    await runAction(page, 'Delete');
    await dialog(page, 'Delete').getByText(/Move to trash/).waitFor();
    await screenshot(page, 'trash-delete-dialog-desktop-light-en');
    await dialogButton(page, 'Delete', 'Delete').click();
    await untilOnDisk(disk('docs/report.txt'), false);
    expect(readdirSync(trashDir())).toHaveLength(1);

    await page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('link', { name: 'Trash', exact: true }).click();
    await page.waitForURL(/\/trash$/);
    await trashItem(page, 'report.txt').click();
    await expect.poll(() => trashItem(page, 'report.txt').getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await untilOnDisk(disk('docs/report.txt'), true);
    expect(readFileSync(disk('docs/report.txt'), 'utf8')).toBe('quarterly figures');
    await trashItem(page, 'report.txt').waitFor({ state: 'detached' });
    await page.getByText('The trash is empty.', { exact: true }).waitFor();
    expect(readdirSync(trashDir())).toEqual([]);
  });

  it('asks on a conflict and keeps both', async () => {
    const { page } = browser;
    expect((await api.call('DELETE', '/api/resources/docs/notes.txt')).status).toBe(204);
    expect((await api.call('POST', '/api/resources/docs/notes.txt', 'new notes')).status).toBe(200);
    await page.goto(`${server.url}/trash`);
    await trashItem(page, 'notes.txt').click();
    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await dialogButton(page, 'Restore', 'Keep both').click();
    await untilOnDisk(disk('docs/notes(1).txt'), true);
    expect(readFileSync(disk('docs/notes(1).txt'), 'utf8')).toBe('notes');
    // The browser logs the 409 that brought up the question; nothing else.
    expect(problems.splice(0).every((p) => p.includes('409'))).toBe(true);
  });

  it('"Delete permanently" and "Empty trash" delete for ever after a confirmation', async () => {
    const { page } = browser;
    for (const p of ['/docs/gone.txt', '/docs/report.txt']) expect((await api.call('DELETE', `/api/resources${p}`)).status).toBe(204);
    await page.goto(`${server.url}/trash`);
    await trashItem(page, 'gone.txt').click();
    await page.getByRole('button', { name: 'Delete permanently', exact: true }).click();
    await dialogButton(page, 'Delete permanently', 'Delete permanently').click();
    await trashItem(page, 'gone.txt').waitFor({ state: 'detached' });
    await until(() => readdirSync(trashDir()).length === 1, 'one item left in the trash folder');
    await page.getByRole('button', { name: 'Empty trash', exact: true }).click();
    await dialogButton(page, 'Empty trash', 'Empty trash').click();
    await page.getByText('The trash is empty.', { exact: true }).waitFor();
    await until(() => readdirSync(trashDir()).length === 0, 'an empty trash folder');
    expect(existsSync(disk('docs/gone.txt'))).toBe(false);
  });

  it('global settings: "Keep deleted items in the trash" and "Days in the trash"', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/settings/global`);
    const form = card(page, 'Global Settings');
    const keep = form.getByRole('checkbox', { name: 'Keep deleted items in the trash', exact: true });
    const days = form.getByRole('spinbutton', { name: 'Days in the trash', exact: true });
    expect(await keep.isChecked()).toBe(true);
    expect(await days.inputValue()).toBe('30');
    await days.scrollIntoViewIfNeeded();
    await screenshot(page, 'trash-settings-desktop-light-en');
    await days.fill('7');
    await keep.uncheck();
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    await until(async () => (await readSettings(api) as unknown as { trash: { days: number } }).trash.days === 7, 'days saved');
    expect((await readSettings(api) as unknown as { trash: { enabled: boolean } }).trash.enabled).toBe(false);
    // The delete dialog follows at once: no "Move to trash" while the trash is off.
    await openFolder(page, server, { folder: '/docs/', expect: 'notes.txt' });
    await item(page, 'notes.txt').click();
    await runAction(page, 'Delete');
    await dialog(page, 'Delete').getByText('This cannot be undone.', { exact: true }).waitFor();
    await dialogButton(page, 'Delete', 'Cancel').click();
    await page.goto(`${server.url}/settings/global`);
    await untilEnabled(card(page, 'Global Settings').getByRole('checkbox', { name: 'Keep deleted items in the trash', exact: true }));
    await card(page, 'Global Settings').getByRole('checkbox', { name: 'Keep deleted items in the trash', exact: true }).check();
    await card(page, 'Global Settings').getByRole('button', { name: 'Update', exact: true }).click();
    await until(async () => (await readSettings(api) as unknown as { trash: { enabled: boolean } }).trash.enabled, 'trash on again');
  });

  it('looks right: desktop and phone, light and dark, English and Arabic', async () => {
    const { page } = browser;
    for (const p of ['/look/Holiday photos', '/look/budget-2026.xlsx', '/look/a very long file name that goes on and on to test how the row wraps.txt']) {
      expect((await api.call('DELETE', `/api/resources${encodeURI(p)}`)).status).toBe(204);
    }
    const items = await api.json<TrashEntry[]>('/api/trash');
    expect(items.map((i) => i.path)).toContain('/look/Holiday photos');
    const violations: string[] = [];
    // Each look is also checked by axe-core (WCAG 2.1 AA), once transitions have ended.
    const show = async (): Promise<void> => {
      await page.goto(`${server.url}/trash`);
      await page.locator('.trash-entry').nth(1).click();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
      violations.push(...(await axeViolations(page)));
    };
    const shots = [
      ...(await shootLooks(page, api, { name: 'trash', locale: 'en', show })),
      ...(await shootLooks(page, api, { name: 'trash', locale: 'ar', show })),
    ];
    expect(shots).toHaveLength(8);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
  });
});
