import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { until, updateAdmin } from './support/files';
import { shootLooks } from './support/looks';

const TREE = {
  'st/alpha-report.txt': 'x'.repeat(2048),
  'st/sub/beta-report.md': '# b\n',
  'st/report-folder': null,
  'st/unrelated.txt': 'u',
};
const WHEN = new Date('2024-03-05T10:20:30.000Z');

describe('search as you type', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  const searches: string[] = [];

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    utimesSync(join(server.sandbox.root, 'st/alpha-report.txt'), WHEN, WHEN);
    api = await apiAs(server);
    await updateAdmin(api, { dateFormat: true });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    browser.page.on('request', (request) => {
      if (request.url().includes('/api/search/')) searches.push(request.url());
    });
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  const results = () => browser.page.getByRole('list', { name: 'Search results', exact: true });
  const box = () => browser.page.getByRole('searchbox', { name: 'Search', exact: true });

  it('searches once typing pauses, without Enter, with one request for the whole word', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/st/`);
    await page.getByRole('listbox', { name: 'Files and folders', exact: true }).waitFor();
    await page.keyboard.press('Control+f');
    searches.length = 0;
    // When each keystroke reached the page: a loaded machine may hold one back past the pause, and
    // then the word typed so far is searched too (as it would be for a person who paused there).
    await box().evaluate((input) => {
      const times: number[] = [];
      (window as unknown as { typedAt: number[] }).typedAt = times;
      input.addEventListener('input', () => times.push(performance.now()));
    });
    await box().pressSequentially('report', { delay: 60 });
    await results().getByRole('link', { name: 'alpha-report.txt', exact: true }).waitFor();
    await results().getByRole('link', { name: 'sub/beta-report.md', exact: true }).waitFor();
    await results().getByRole('link', { name: 'report-folder', exact: true }).waitFor();
    await page.waitForTimeout(500);
    const typedAt = await page.evaluate(() => (window as unknown as { typedAt: number[] }).typedAt);
    expect(typedAt).toHaveLength('report'.length);
    const gaps = typedAt.slice(1).map((t, i) => t - (typedAt[i] ?? t));
    // Pauses clearly past TYPE_PAUSE_MS (150) must have searched; clearly shorter ones must not.
    const surely = gaps.filter((g) => g > 170).length;
    const maybe = gaps.filter((g) => g > 130).length;
    expect(searches.length).toBeGreaterThanOrEqual(1 + surely);
    expect(searches.length).toBeLessThanOrEqual(1 + maybe);
    expect(decodeURIComponent(searches.at(-1) ?? '')).toContain('query=report');
    expect(await results().getByRole('link').count()).toBe(3);
  });

  it('shows each file\'s size and time modified beside its link; a folder shows its time only', async () => {
    const { page } = browser;
    const row = results().getByRole('listitem').filter({ has: page.getByRole('link', { name: 'alpha-report.txt', exact: true }) });
    const meta = row.locator('.search-hit-meta');
    expect(await meta.innerText()).toMatch(/2(\.0)?\s?(KiB|KB|kB)/);
    expect(await meta.locator('time').getAttribute('datetime')).toBe(WHEN.toISOString());
    const link = results().getByRole('link', { name: 'alpha-report.txt', exact: true });
    const described = await link.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described ?? ''}"]`).innerText()).toBe(await meta.innerText());
    const folder = results().getByRole('listitem').filter({ has: page.getByRole('link', { name: 'report-folder', exact: true }) });
    expect(await folder.locator('.search-hit-meta time').count()).toBe(1);
    expect(await folder.locator('.search-hit-meta > span').count()).toBe(0);
  });

  it('starts over as the text changes: a new word finds only its matches', async () => {
    const { page } = browser;
    await box().fill('');
    await box().pressSequentially('unrel', { delay: 40 });
    await results().getByRole('link', { name: 'unrelated.txt', exact: true }).waitFor();
    await until(async () => (await results().getByRole('link').count()) === 1, 'only unrelated.txt');
    await page.keyboard.press('Escape');
  });

  it('looks right in Arabic, light and dark, desktop and phone', async () => {
    const { page } = browser;
    const shots = await shootLooks(page, api, { name: 'search-as-you-type', locale: 'ar', show: async () => {
      await page.goto(`${server.url}/files/st/`);
      await page.locator('[role="option"][data-path="/st/unrelated.txt"]').waitFor();
      await page.keyboard.press('Control+f');
      await page.locator('input[type="search"]').pressSequentially('report', { delay: 30 });
      await page.locator('.search-list .search-hit-meta').nth(2).waitFor();
    } });
    expect(shots).toHaveLength(4);
    expect(problems).toEqual([]);
  });
});
