import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, makeSandbox, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import {
  adminRecord, button, item, listbox, openFolder, renderedPaths, selectedNames, selectedText, until, updateAdmin,
} from './support/files';

const NOW = Math.floor(Date.now() / 1000);
const HUGE = 100_000;
const MANY = 300;
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

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
  mkdirSync(join(root, 'many'));
  // m-001 holds 1 byte, m-300 300 bytes: every row shows a size of its own.
  for (let i = 1; i <= MANY; i++) writeFileSync(join(root, 'many', `m-${pad(i, 3)}`), 'x'.repeat(i));
  mkdirSync(join(root, 'names'));
  for (const name of Object.values(NAMES)) writeFileSync(join(root, 'names', name), '');
  mkdirSync(join(root, 'huge'));
  for (let i = 0; i < HUGE; i++) writeFileSync(join(root, 'huge', `f-${pad(i, 6)}`), '');
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

/** Waits for the selection banner's "N selected", then checks exactly these names are selected. */
async function expectSelected(page: Page, names: string[]): Promise<void> {
  await selectedText(page, names.length).waitFor();
  expect(await selectedNames(page)).toEqual(names);
}

async function expectBannerGone(page: Page): Promise<void> {
  await page.getByText(/^\d+ selected$/).waitFor({ state: 'hidden' });
  expect(await selectedNames(page)).toEqual([]);
}

async function disabledActions(page: Page): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const name of ['Share', 'Rename', 'Copy', 'Move', 'Delete']) out[name] = await button(page, name).isDisabled();
  return out;
}

const ALL_OFF = { Share: true, Rename: true, Copy: true, Move: true, Delete: true };
const ONE = { Share: false, Rename: false, Copy: false, Move: false, Delete: false };
const SEVERAL = { Share: true, Rename: true, Copy: false, Move: false, Delete: false };

/**
 * Scrolls the window to its end again and again, each time waiting until the page grows (the
 * listing laid out more items), until the option `last` exists or after `maxRounds` rounds.
 * Reports the rounds that made the page grow, the most options the page held and the highest aria-posinset seen.
 */
function scrollRounds(page: Page, opts: { last: string; maxRounds: number }): Promise<{ found: boolean; rounds: number; maxOptions: number; maxPos: number }> {
  return page.evaluate(async ({ last, maxRounds }) => {
    const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));
    const options = (): Element[] => [...document.querySelectorAll('[role="listbox"] [role="option"]')];
    const found = (): boolean => options().some((o) => o.getAttribute('aria-label') === last);
    let rounds = 0;
    let maxOptions = 0;
    let maxPos = 0;
    const look = (): void => {
      const all = options();
      maxOptions = Math.max(maxOptions, all.length);
      for (const o of all) maxPos = Math.max(maxPos, Number(o.getAttribute('aria-posinset')));
    };
    while (!found() && rounds < maxRounds) {
      const before = document.documentElement.scrollHeight;
      window.scrollTo(0, before);
      // At most 10 s (600 frames) for the page to grow.
      for (let f = 0; f < 600 && document.documentElement.scrollHeight === before && !found(); f++) await frame();
      const grew = document.documentElement.scrollHeight !== before;
      if (!grew && !found()) break;
      if (grew) rounds++;
      await frame();
      look();
    }
    look();
    return { found: found(), rounds, maxOptions, maxPos };
  }, opts);
}

/**
 * The rendered options of many/ that show anything but the item at their aria-posinset (m-<pos>,
 * <pos> bytes): name, path, text, size, index and id must all belong to the same item.
 */
function mismatchedOptions(page: Page): Promise<string[]> {
  return listbox(page).evaluate((box) => [...box.querySelectorAll('[role="option"]')].flatMap((o) => {
    const pos = Number(o.getAttribute('aria-posinset'));
    const name = `m-${String(pos).padStart(3, '0')}`;
    const shown = [o.getAttribute('aria-label'), o.getAttribute('data-path'), o.querySelector('.entry-name')?.textContent,
      o.querySelector('.entry-size')?.textContent, o.getAttribute('data-index'), o.id];
    const want = [name, `/many/${name}`, name, `${pos}\u00a0B`, String(pos - 1), `item-${pos - 1}`];
    return shown.every((value, i) => value === want[i]) ? [] : [`${pos}: ${shown.join(' | ')}`];
  }));
}

/**
 * Waits until the options are in the page in the order of their items: while a scroll goes on,
 * rows keep their elements where they are; at rest screen readers read the items in order.
 */
async function optionsInItemOrder(page: Page): Promise<void> {
  await listbox(page).evaluate((box) => new Promise<void>((resolve) => {
    const check = () => {
      const positions = [...box.querySelectorAll('[role="option"]')].map((o) => Number(o.getAttribute('aria-posinset')));
      if (positions.length > 0 && positions.every((p, i) => i === 0 || p > (positions[i - 1] ?? 0))) resolve();
      else requestAnimationFrame(check);
    };
    check();
  }));
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
    expect(await renderedPaths(page)).toEqual(['/docs/', '/empty/', '/huge/', '/many/', '/names/', '/sel/', '/sorted/']);
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

  it('Ctrl+A selects all 300 items of a folder, also the ones not rendered yet', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/many/', expect: 'm-001' });
    await item(page, 'm-001').click();
    await page.keyboard.press('Control+a');
    await selectedText(page, MANY).waitFor();
    const rendered = await renderedPaths(page);
    expect(rendered.length).toBeLessThan(MANY);
    expect(await selectedNames(page)).toHaveLength(rendered.length);
    expect(await disabledActions(page)).toEqual(SEVERAL);
    await page.keyboard.press('Escape');
    await expectBannerGone(page);
  });

  it('rows scrolled into view show their own items; the selection and the focus stay with theirs', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/many/', expect: 'm-001' });
    await item(page, 'm-003').click();
    await expectSelected(page, ['m-003']);
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'm-003');
    expect(await mismatchedOptions(page)).toEqual([]);
    expect((await scrollRounds(page, { last: `m-${MANY}`, maxRounds: 50 })).found).toBe(true);
    await item(page, `m-${MANY}`).waitFor();
    expect(await renderedPaths(page)).not.toContain('/many/m-003');
    expect(await mismatchedOptions(page)).toEqual([]);
    await optionsInItemOrder(page);
    expect(await selectedNames(page)).toEqual([]);
    // m-003 is no longer on the page, so no option on the page holds the focus in its place.
    expect(await page.evaluate(() => document.activeElement?.closest('[role="option"]')?.getAttribute('aria-label') ?? null)).toBeNull();
    await page.evaluate(() => window.scrollTo(0, 0));
    await item(page, 'm-003').waitFor();
    expect(await mismatchedOptions(page)).toEqual([]);
    await optionsInItemOrder(page);
    expect(await selectedNames(page)).toEqual(['m-003']);
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

  it('End on a 100,000-entry folder focuses the last item while the page holds only a few options', async () => {
    const { page } = browser;
    const last = `f-${pad(HUGE - 1, 6)}`;
    await openFolder(page, server, { folder: '/huge/', expect: 'f-000000' });
    expect((await renderedPaths(page)).length).toBeLessThan(500);
    await item(page, 'f-000000').click();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'f-000000');
    await page.keyboard.press('End');
    await item(page, last).waitFor();
    await page.waitForFunction((name) => document.activeElement?.getAttribute('aria-label') === name, last);
    const box = await item(page, last).boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport).toBeTruthy();
    if (box && viewport) {
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    }
    const rendered = await renderedPaths(page);
    expect(rendered.length).toBeLessThan(500);
    expect(rendered).toContain(`/huge/${last}`);
    expect(rendered).not.toContain('/huge/f-000000');
  }, 120_000);

  it('scrolling to the end lays out 50 more items each time, until the last of 300 shows', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/many/', expect: 'm-001' });
    expect(await item(page, `m-${MANY}`).count()).toBe(0);
    const run = await scrollRounds(page, { last: `m-${MANY}`, maxRounds: 50 });
    // 50 laid out at first, then 50 per scroll to the end: the page grows 5 times to reach 300.
    expect(run).toMatchObject({ found: true, rounds: MANY / 50 - 1 });
    await item(page, `m-${MANY}`).waitFor();
  });

  it('scrolling a 100,000-entry folder keeps adding 50 items a time while the page holds only a few options', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/huge/', expect: 'f-000000' });
    const rounds = 20;
    const run = await scrollRounds(page, { last: `f-${pad(HUGE - 1, 6)}`, maxRounds: rounds });
    expect(run.found).toBe(false);
    expect(run.rounds).toBe(rounds);
    // After 20 rounds 1,050 items are laid out: the page sits at the end of the first 1,000.
    expect(run.maxPos).toBeGreaterThan(50 * rounds);
    expect(run.maxPos).toBeLessThanOrEqual(50 * (rounds + 1));
    expect(run.maxOptions).toBeLessThan(500);
  }, 120_000);

  it('loads without a script error', () => {
    expect(problems).toEqual([]);
  });
});
