import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, makeSandbox, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems } from './support/session';
import { item, listbox, openFolder, renderedPaths, selectedNames, selectedText, updateAdmin } from './support/files';
import { disabledActions, expectBannerGone, expectSelected, SEVERAL } from './support/selection';

// The files listing of large folders: only about three window heights of options exist in the
// page, rows take over the elements of rows scrolled out, and the rest is laid out 50 items at a
// time as the list nears its end (product.md §2).

const HUGE = 100_000;
const MANY = 300;
const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** many/ (m-001 holds 1 byte, m-300 300 bytes: every row shows a size of its own) and huge/. */
function writeFixtures(root: string): void {
  mkdirSync(join(root, 'many'));
  for (let i = 1; i <= MANY; i++) writeFileSync(join(root, 'many', `m-${pad(i, 3)}`), 'x'.repeat(i));
  mkdirSync(join(root, 'huge'));
  for (let i = 0; i < HUGE; i++) writeFileSync(join(root, 'huge', `f-${pad(i, 6)}`), '');
}

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

describe('the files listing of a large folder', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];

  beforeAll(async () => {
    const sandbox = await makeSandbox({});
    writeFixtures(sandbox.root);
    server = await startServer({ sandbox });
    // List view, by name from A to Z (api.md §5.6: asc false): the options' order and height.
    await updateAdmin(await apiAs(server), { viewMode: 'list', sorting: { by: 'name', asc: false } });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  }, 120_000);

  afterAll(() => shutDown(browser, server));

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
