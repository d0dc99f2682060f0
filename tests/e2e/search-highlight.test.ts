import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { heldRelay, type HeldRelay } from './support/held-relay';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { until } from './support/files';
import { shootLooks } from './support/looks';

// Search results as you type, from the index (beyond.md §7, issue B4): the part of each name that
// the query matched is in a <mark>; a name is text, never markup. A relay in front of the server
// holds the answer back from a given result on, to see results shown as they stream in.
const TREE = {
  'hl/quarterly-Report-2024.txt': 'q',
  'hl/تقرير-report.txt': 'ar',
  'hl/zeta-report.txt': 'z',
  'hl/unrelated.txt': 'u',
  // A folder `<b>x<` holding `b>.txt` (a name cannot hold '/'): the path reads `<b>x</b>.txt`.
  'hl/<b>x</b>.txt': 'b',
  'hl/<img src=x onerror=alert(1)>.txt': 'img',
};

describe('search results as you type, the match marked', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let relay: HeldRelay;
  let api: ApiClient;
  let problems: string[];
  const dialogs: string[] = [];

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    // Searches answer from the index once it is built (the walk answers the same before).
    await until(() => server.stdout().includes('search index built'), 'the search index built', 20_000);
    relay = await heldRelay(server.url);
    api = await apiAs(server);
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    browser.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await signIn(browser.page, { ...server, url: relay.url });
  });

  afterAll(async () => {
    await relay.close();
    await shutDown(browser, server);
  });

  const results = () => browser.page.getByRole('list', { name: 'Search results', exact: true });
  const box = () => browser.page.getByRole('searchbox', { name: 'Search', exact: true });
  const hit = (path: string) => results().getByRole('link', { name: path, exact: true });
  const marks = (path: string) => hit(path).locator('mark').allTextContents();

  it('shows the matching files while typing part of a name, without Enter, the match marked', async () => {
    const { page } = browser;
    await page.goto(`${relay.url}/files/hl/`);
    await page.getByRole('listbox', { name: 'Files and folders', exact: true }).waitFor();
    await page.keyboard.press('Control+f');
    await box().pressSequentially('PORT', { delay: 40 });
    await hit('quarterly-Report-2024.txt').waitFor();
    // A pause between two keys may have searched for the start of the word first: the last wins.
    await expect.poll(() => marks('quarterly-Report-2024.txt')).toEqual(['port']);
    expect(await hit('تقرير-report.txt').locator('mark').allTextContents()).toEqual(['port']);
    expect(await hit('zeta-report.txt').locator('mark').allTextContents()).toEqual(['port']);
    expect(await results().getByRole('link').count()).toBe(3);
    // The name reads in its own direction, isolated from the page's.
    expect(await hit('تقرير-report.txt').locator('bdi').getAttribute('dir')).toBe('auto');
  });

  it('shows the results that have arrived while the rest of the answer is still on its way', async () => {
    const { page } = browser;
    relay.holdAt('zeta-report');
    // One input event, so one search: the one held back.
    await box().fill('report');
    await hit('quarterly-Report-2024.txt').waitFor();
    await until(() => relay.holding(), 'the answer held back at zeta-report');
    expect(await hit('zeta-report.txt').count()).toBe(0);
    expect(await results().getAttribute('aria-busy')).toBe('true');
    relay.release();
    await hit('zeta-report.txt').waitFor();
    await page.waitForFunction(() => document.querySelector('.search-list')?.getAttribute('aria-busy') === 'false');
    expect(await hit('zeta-report.txt').locator('mark').allTextContents()).toEqual(['report']);
  });

  it('shows a name holding markup as its text, the match marked in it', async () => {
    const { page } = browser;
    await box().fill('b>');
    const bold = hit('<b>x</b>.txt');
    await bold.waitFor();
    expect(await bold.innerText()).toBe('<b>x</b>.txt');
    expect(await bold.locator('b').count()).toBe(0);
    // Only the base name is matched and marked: `b>.txt`, not the `b>` of its folder.
    expect(await bold.locator('mark').allTextContents()).toEqual(['b>']);
    expect(await hit('<b>x<').locator('mark').allTextContents()).toEqual(['b>']);
    await box().fill('onerror');
    const img = hit('<img src=x onerror=alert(1)>.txt');
    await img.waitFor();
    expect(await img.innerText()).toBe('<img src=x onerror=alert(1)>.txt');
    expect(await img.locator('mark').allTextContents()).toEqual(['onerror']);
    expect(await page.locator('.search-overlay img').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('still searches at once with Enter, and says when nothing matches', async () => {
    const { page } = browser;
    await box().fill('zeta');
    await box().press('Enter');
    await hit('zeta-report.txt').waitFor();
    expect(await hit('zeta-report.txt').locator('mark').allTextContents()).toEqual(['zeta']);
    await box().fill('nothing-is-called-this');
    await page.getByText('Nothing found.', { exact: true }).waitFor();
    expect(await results().getByRole('link').count()).toBe(0);
  });

  it('says in the results why a search failed, and searches again once the text changes', async () => {
    const { page } = browser;
    await page.route('**/api/search/**', (route) => route.fulfill({ status: 500, body: '500 Internal Server Error\n' }));
    await box().fill('zeta');
    const status = page.locator('.search-status.failed');
    await status.waitFor();
    expect((await status.innerText()).length).toBeGreaterThan(0);
    expect(await results().getByRole('link').count()).toBe(0);
    await screenshot(page, 'search-highlight-failed');
    await page.unroute('**/api/search/**');
    // The browser's own console line for the refused request is expected here, and only here.
    const expected = problems.filter((p) => p.includes('status of 500'));
    expect(expected).toHaveLength(1);
    problems.splice(problems.indexOf(expected[0] ?? ''), 1);
    await box().fill('zet');
    await hit('zeta-report.txt').waitFor();
    expect(await status.count()).toBe(0);
    await page.keyboard.press('Escape');
    await box().waitFor({ state: 'detached' });
  });

  it('looks right in Arabic, light and dark, desktop and phone', async () => {
    const { page } = browser;
    const shots = await shootLooks(page, api, { name: 'search-highlight', locale: 'ar', show: async () => {
      await page.goto(`${relay.url}/files/hl/`);
      await page.locator('[role="option"][data-path="/hl/unrelated.txt"]').waitFor();
      await page.keyboard.press('Control+f');
      await page.locator('input[type="search"]').pressSequentially('rep', { delay: 30 });
      await page.locator('.search-list mark').nth(2).waitFor();
    } });
    expect(shots).toHaveLength(4);
    expect(problems).toEqual([]);
  });
});
