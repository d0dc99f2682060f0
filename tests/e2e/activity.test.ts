import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { launchBrowser, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { shootLooks } from './support/looks';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { card, createUserByApi, nextResponse, readSettings, strongPassword, successNotice } from './support/settings';

// Settings > Activity (beyond.md §8, §9): an admin filters the activity by user and exports it.

const BOB = { username: 'bob', password: strongPassword('bob-activity') };

async function openActivity(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/settings/activity`);
  await page.getByRole('table').waitFor();
}

/** The text of one column of the activity table, row by row. */
async function column(page: Page, index: number): Promise<string[]> {
  return page.getByRole('table').locator(`tbody tr td:nth-child(${index})`).allInnerTexts();
}

/** A small RFC 4180 parser: quoted fields, doubled quotes, commas and line breaks inside. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && c === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('Settings > Activity', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;

  beforeAll(async () => {
    server = await startServer({ tree: { 'notes.txt': 'hello' } });
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(10_000);
    api = await apiAs(server);
    await createUserByApi(api, server.password, { ...BOB, scope: '.', perm: { admin: false, execute: false, create: true, rename: true, modify: true, delete: true, share: true, download: true } });
    const bob = await apiAs(server, BOB.username, BOB.password);
    expect((await bob.call('POST', '/api/resources/from-bob/')).status).toBe(200);
    expect((await bob.call('PUT', '/api/resources/notes.txt', 'changed by bob')).status).toBe(200);
    expect((await api.call('POST', '/api/resources/from-admin/')).status).toBe(200);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('is a settings tab for admins, listing the newest changes first', async () => {
    const { page } = browser;
    const problems = watchProblems(page);
    await page.goto(`${server.url}/settings/profile`);
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Activity', exact: true }).click();
    await page.getByRole('table').waitFor();
    const headers = await page.getByRole('columnheader').allInnerTexts();
    expect(headers.slice(0, 4).map((h) => h.toLowerCase())).toEqual(['time', 'user', 'action', 'path']);
    expect((await column(page, 4)).some((path) => path.includes('/from-admin'))).toBe(true);
    expect((await column(page, 2))[0]).toBe('admin');
    expect(await column(page, 3)).toEqual(expect.arrayContaining(['Sign-in', 'Create', 'Save']));
    expect(problems).toEqual([]);
  });

  it('filters the activity by user, and exports the same as CSV', async () => {
    const { page } = browser;
    await openActivity(page, server.url);
    await page.getByRole('textbox', { name: 'User', exact: true }).fill('bob');
    const answer = nextResponse(page, 'GET', '/api/activity');
    await page.getByRole('button', { name: 'Apply filters', exact: true }).click();
    expect((await answer).url()).toContain('user=bob');
    await page.getByRole('table').locator('tbody tr').first().waitFor();
    await expect.poll(() => column(page, 2)).toEqual(['bob', 'bob', 'bob']);
    expect(await column(page, 3)).toEqual(['Save', 'Create', 'Sign-in']);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('activity.csv');
    const rows = parseCsv(await readFile(await download.path(), 'utf8'));
    expect(rows[0]?.slice(0, 5)).toEqual(['time', 'user', 'address', 'action', 'path']);
    expect(rows.slice(1).map((r) => [r[1], r[3], r[4]])).toEqual([['bob', 'save', '/notes.txt'], ['bob', 'create', '/from-bob'], ['bob', 'login', '']]);
  });

  it('keeps the days set in Global Settings', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/settings/global`);
    const form = card(page, 'Global Settings');
    await form.getByRole('spinbutton', { name: 'Days of activity kept', exact: true }).fill('30');
    await form.getByRole('button', { name: 'Update', exact: true }).click();
    await successNotice(page, 'Settings updated!').waitFor();
    expect((await readSettings(api) as unknown as { activityDays: number }).activityDays).toBe(30);
    await shootLooks(page, api, {
      name: 'activity-days', locale: 'ar',
      show: async () => {
        await page.goto(`${server.url}/settings/global`);
        // The page holds several (days of activity, days in the trash): the first shows it is there.
        await page.getByRole('spinbutton').first().waitFor();
      },
    });
  });

  it('shows 100 entries, then the next page with "Load more"', async () => {
    const { page } = browser;
    for (let i = 0; i < 100; i++) expect((await api.call('POST', `/api/resources/many/f${i}/`)).status).toBe(200);
    await openActivity(page, server.url);
    const rows = page.getByRole('table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(100);
    const answer = nextResponse(page, 'GET', '/api/activity');
    await page.getByRole('button', { name: 'Load more', exact: true }).click();
    expect((await answer).url()).toContain('cursor=');
    await expect.poll(async () => (await rows.count()) > 100).toBe(true);
    expect((await column(page, 4)).filter((path) => path.startsWith('/many/f')).length).toBe(100);
  });

  it.each(['light', 'dark'])('has no axe-core violations (WCAG 2.1 AA), %s', async (theme) => {
    const { page } = browser;
    await page.goto(`${server.url}/settings/profile`);
    await page.evaluate((t) => localStorage.setItem('filemgr.theme', t === 'dark' ? 'dark' : ''), theme);
    await openActivity(page, server.url);
    try {
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
    }
  });

  it('looks right on a desk and a phone, light and dark, left to right and right to left', async () => {
    const { page } = browser;
    for (const locale of ['en', 'ar']) {
      await shootLooks(page, api, { name: 'activity', locale, show: () => openActivity(page, server.url) });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await openActivity(page, server.url);
    // Nothing wider than the phone: the stacked rows wrap long paths.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
