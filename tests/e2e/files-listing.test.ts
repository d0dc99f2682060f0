import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, makeSandbox, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { adminRecord, button, item, listbox, openFolder, renderedPaths, selectedText, until, updateAdmin } from './support/files';
import { ALL_OFF, disabledActions, expectBannerGone, expectSelected, ONE, SEVERAL } from './support/selection';

const NOW = Math.floor(Date.now() / 1000);

/** names/: a name too long for any row, one that fits a desktop row but not a phone's, and a short one. */
const NAMES = { long: `${'long-name-'.repeat(20)}end.txt`, medium: `${'medium-'.repeat(5)}end.txt`, short: 'short.txt' };

/** sorted/: names, sizes and dates that sort three different ways (seconds before NOW). */
const SORTED = {
  folders: { alpha: 4000, Beta: 100 },
  files: { 'a.txt': { size: 300, age: 1000 }, 'B.txt': { size: 10, age: 3000 }, 'c9.txt': { size: 50, age: 500 }, 'c10.txt': { size: 2000, age: 2000 } },
};

function writeFixtures(root: string): void {
  mkdirSync(join(root, 'sorted'));
  for (const [name, { size, age }] of Object.entries(SORTED.files)) {
    writeFileSync(join(root, 'sorted', name), 'x'.repeat(size));
    utimesSync(join(root, 'sorted', name), NOW - age, NOW - age);
  }
  for (const [name, age] of Object.entries(SORTED.folders)) {
    mkdirSync(join(root, 'sorted', name));
    utimesSync(join(root, 'sorted', name), NOW - age, NOW - age);
  }
  mkdirSync(join(root, 'names'));
  for (const name of Object.values(NAMES)) writeFileSync(join(root, 'names', name), '');
}

/** The data-paths of sorted/ in the order given: folders first, as the listing groups them. */
const paths = (folders: string[], files: string[]): string[] => [...folders.map((f) => `/sorted/${f}/`), ...files.map((f) => `/sorted/${f}`)];

/** Clicks a sort button and waits until the listing shows the order it now announces. */
async function sortBy(page: Page, name: string, want: 'ascending' | 'descending'): Promise<void> {
  await button(page, name).click();
  await page.waitForFunction(({ label, order }) => [...document.querySelectorAll('button[aria-sort]')]
    .some((b) => b.textContent === label && b.getAttribute('aria-sort') === order), { label: name, order: want });
}

/** The names of the sort buttons carrying aria-sort, with its value. */
function sortState(page: Page): Promise<[string, string][]> {
  return page.evaluate(() => [...document.querySelectorAll('button[aria-sort]')].map((b) => [b.textContent ?? '', b.getAttribute('aria-sort') ?? '']));
}

describe('the files listing', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];

  beforeAll(async () => {
    const sandbox = await makeSandbox({ 'docs/readme.txt': 'hello', 'empty': null, 'sel/s1.txt': '1', 'sel/s2.txt': '2', 'sel/s3.txt': '3', 'sel/s4.txt': '4', 'sel/s5.txt': '5', 'sel/s6.txt': '6' });
    writeFixtures(sandbox.root);
    server = await startServer({ sandbox });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'list', sorting: { by: 'name', asc: false } });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  }, 120_000);

  beforeEach(async () => {
    // By name, A to Z (api.md §5.6: asc false), unless a test sorts otherwise.
    await updateAdmin(api, { sorting: { by: 'name', asc: false } });
  });

  afterAll(() => shutDown(browser, server));

  it('opens a folder by double click and returns by the "Home" breadcrumb', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/', expect: 'docs' });
    await item(page, 'docs').dblclick();
    await page.waitForURL(/\/files\/docs\/$/);
    await item(page, 'readme.txt').waitFor();
    expect(await renderedPaths(page)).toEqual(['/docs/readme.txt']);
    await page.getByRole('navigation', { name: 'Breadcrumbs', exact: true }).getByRole('link', { name: 'Home', exact: true }).click();
    await page.waitForURL(/\/files\/$/);
    await item(page, 'docs').waitFor();
    expect(await renderedPaths(page)).toEqual(['/docs/', '/empty/', '/names/', '/sel/', '/sorted/']);
  });

  it('shows "It feels lonely here..." in an empty folder', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/empty/' });
    expect(await listbox(page).getByRole('option').count()).toBe(0);
  });

  it('sorts by name, size and date; aria-sort tells the order on screen and the choice is kept', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/sorted/', expect: 'a.txt' });
    expect(await sortState(page)).toEqual([['Name', 'ascending']]);
    // Names compare case-insensitively and naturally (c9 before c10).
    expect(await renderedPaths(page)).toEqual(paths(['alpha', 'Beta'], ['a.txt', 'B.txt', 'c9.txt', 'c10.txt']));

    await sortBy(page, 'Name', 'descending');
    expect(await renderedPaths(page)).toEqual(paths(['Beta', 'alpha'], ['c10.txt', 'c9.txt', 'B.txt', 'a.txt']));
    expect((await adminRecord(api)).sorting).toEqual({ by: 'name', asc: true });

    await sortBy(page, 'Size', 'descending');
    expect(await sortState(page)).toEqual([['Size', 'descending']]);
    const bySizeDown = await renderedPaths(page);
    // Folders keep their own group; their sizes are the directories' and may tie.
    expect(bySizeDown.slice(0, 2).sort()).toEqual(['/sorted/Beta/', '/sorted/alpha/']);
    expect(bySizeDown.slice(2)).toEqual(paths([], ['c10.txt', 'a.txt', 'c9.txt', 'B.txt']));
    expect((await adminRecord(api)).sorting).toEqual({ by: 'size', asc: false });

    await sortBy(page, 'Size', 'ascending');
    expect((await renderedPaths(page)).slice(2)).toEqual(paths([], ['B.txt', 'c9.txt', 'a.txt', 'c10.txt']));

    await sortBy(page, 'Last modified', 'descending');
    expect(await renderedPaths(page)).toEqual(paths(['Beta', 'alpha'], ['c9.txt', 'a.txt', 'c10.txt', 'B.txt']));

    await sortBy(page, 'Last modified', 'ascending');
    const oldestFirst = paths(['alpha', 'Beta'], ['B.txt', 'c10.txt', 'a.txt', 'c9.txt']);
    expect(await renderedPaths(page)).toEqual(oldestFirst);
    expect((await adminRecord(api)).sorting).toEqual({ by: 'modified', asc: true });

    await page.reload();
    await item(page, 'a.txt').waitFor();
    expect(await sortState(page)).toEqual([['Last modified', 'ascending']]);
    expect(await renderedPaths(page)).toEqual(oldestFirst);
  });

  it('"Switch view" cycles list, mosaic, mosaic gallery and list, and stores it on the user', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/sorted/', expect: 'a.txt' });
    const listing = page.locator('.listing');
    expect(await listing.getAttribute('class')).toContain('view-list');
    for (const [mode, cls] of [['mosaic', 'view-mosaic'], ['mosaic gallery', 'view-mosaic-gallery'], ['list', 'view-list']]) {
      await button(page, 'Switch view').click();
      await page.locator(`.listing.${cls}`).waitFor();
      expect((await listing.getAttribute('class'))?.split(/\s+/)).toEqual(['listing', cls]);
      await until(async () => (await adminRecord(api)).viewMode === mode, `viewMode ${mode} stored`);
      // Every item is still there in every view.
      expect(await renderedPaths(page)).toEqual(paths(['alpha', 'Beta'], ['a.txt', 'B.txt', 'c9.txt', 'c10.txt']));
    }
  });

  it('selects by click, Ctrl+click, Shift+click and Ctrl+A, clears by Esc, and enables the actions that apply', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/sel/', expect: 's1.txt' });
    expect(await disabledActions(page)).toEqual(ALL_OFF);
    expect(await button(page, 'Switch view').isDisabled()).toBe(false);
    expect(await button(page, 'Info').isDisabled()).toBe(false);
    expect(await button(page, 'Download').isDisabled()).toBe(false);

    await item(page, 's2.txt').click();
    await expectSelected(page, ['s2.txt']);
    expect(await disabledActions(page)).toEqual(ONE);
    await item(page, 's4.txt').click();
    await expectSelected(page, ['s4.txt']);
    await item(page, 's5.txt').click({ modifiers: ['Control'] });
    await expectSelected(page, ['s4.txt', 's5.txt']);
    expect(await disabledActions(page)).toEqual(SEVERAL);
    await item(page, 's4.txt').click({ modifiers: ['Control'] });
    await expectSelected(page, ['s5.txt']);

    await item(page, 's2.txt').click();
    await item(page, 's5.txt').click({ modifiers: ['Shift'] });
    await expectSelected(page, ['s2.txt', 's3.txt', 's4.txt', 's5.txt']);
    expect(await item(page, 's1.txt').getAttribute('aria-selected')).toBe('false');
    expect(await item(page, 's6.txt').getAttribute('aria-selected')).toBe('false');

    await page.keyboard.press('Escape');
    await expectBannerGone(page);
    expect(await disabledActions(page)).toEqual(ALL_OFF);

    await item(page, 's1.txt').click();
    await page.keyboard.press('Control+a');
    await expectSelected(page, ['s1.txt', 's2.txt', 's3.txt', 's4.txt', 's5.txt', 's6.txt']);
    expect(await disabledActions(page)).toEqual(SEVERAL);
    await page.keyboard.press('Escape');
    await expectBannerGone(page);
  });

  it('"Select multiple" makes plain clicks toggle; "Clear" empties the selection and leaves the mode', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/sel/', expect: 's1.txt' });
    const mode = button(page, 'Select multiple');
    expect(await mode.getAttribute('aria-pressed')).toBe('false');
    await mode.click();
    await page.waitForFunction(() => document.querySelector('button[aria-label="Select multiple"]')?.getAttribute('aria-pressed') === 'true');
    await selectedText(page, 0).waitFor();

    await item(page, 's1.txt').click();
    await expectSelected(page, ['s1.txt']);
    await item(page, 's3.txt').click();
    await expectSelected(page, ['s1.txt', 's3.txt']);
    await item(page, 's6.txt').click();
    await expectSelected(page, ['s1.txt', 's3.txt', 's6.txt']);
    await item(page, 's1.txt').click();
    await expectSelected(page, ['s3.txt', 's6.txt']);

    await button(page, 'Clear').click();
    await expectBannerGone(page);
    expect(await mode.getAttribute('aria-pressed')).toBe('false');
    // Plain clicks select one item again.
    await item(page, 's1.txt').click();
    await item(page, 's2.txt').click();
    await expectSelected(page, ['s2.txt']);
  });

  it('a name clips with an ellipsis only when it does not fit its cell, also after the window narrows', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/names/', expect: NAMES.short });
    /** For each name: whether its cell is marked, clips, and ends inside its option. */
    const cells = () => page.evaluate((names) => names.map((name) => {
      const option = [...document.querySelectorAll('[role="option"]')].find((o) => o.getAttribute('aria-label') === name);
      const cell = option?.querySelector<HTMLElement>('.entry-name');
      if (!option || !cell) return 'missing';
      const style = getComputedStyle(cell);
      const inside = cell.getBoundingClientRect().right <= option.getBoundingClientRect().right;
      return `${cell.hasAttribute('data-overflows') ? 'marked' : 'unmarked'} ${style.overflow} ${style.textOverflow} ${inside ? 'inside' : 'spills'}`;
    }), [NAMES.long, NAMES.medium, NAMES.short]);
    expect(await cells()).toEqual(['marked hidden ellipsis inside', 'unmarked visible ellipsis inside', 'unmarked visible ellipsis inside']);
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await until(async () => (await cells())[1]?.startsWith('marked') ?? false, 'the medium name to clip on a phone');
      expect(await cells()).toEqual(['marked hidden ellipsis inside', 'marked hidden ellipsis inside', 'unmarked visible ellipsis inside']);
      await page.setViewportSize({ width: 1280, height: 800 });
      await until(async () => (await cells())[1]?.startsWith('unmarked') ?? false, 'the medium name to fit again');
      expect(await cells()).toEqual(['marked hidden ellipsis inside', 'unmarked visible ellipsis inside', 'unmarked visible ellipsis inside']);
      // Right to left, a name overflows towards the left, and clips the same way.
      await updateAdmin(api, { locale: 'ar' });
      await page.goto(`${server.url}/files/names/`);
      await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      // The listbox has its Arabic name here: the item is awaited by its path.
      await page.locator(`[data-path="/names/${NAMES.short}"]`).waitFor();
      await until(async () => (await cells())[0]?.startsWith('marked') ?? false, 'the long name to clip in Arabic');
      const leftEdges = await page.evaluate((name) => {
        const option = [...document.querySelectorAll('[role="option"]')].find((o) => o.getAttribute('aria-label') === name);
        return [option?.getBoundingClientRect().left ?? 0, option?.querySelector('.entry-name')?.getBoundingClientRect().left ?? -1];
      }, NAMES.long);
      expect(await cells()).toEqual(['marked hidden ellipsis inside', 'unmarked visible ellipsis inside', 'unmarked visible ellipsis inside']);
      expect(leftEdges[1]).toBeGreaterThanOrEqual(leftEdges[0] ?? 0);
    } finally {
      await updateAdmin(api, { locale: 'en' });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('loads without a script error', () => {
    expect(problems).toEqual([]);
  });
});
