import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, makeSandbox, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { heldRelay, type HeldRelay } from './support/held-relay';
import { apiAs, signIn, watchProblems } from './support/session';
import { button, item, renderedPaths, selectedText } from './support/files';

// A large folder shows its first items while the server still sends the rest; a relay holds the
// answer back from one item on, so the page is caught in that state for as long as the test needs.
const MANY = 300;
const name = (i: number): string => `m-${String(i).padStart(3, '0')}`;
const TREE = Object.fromEntries(Array.from({ length: MANY }, (_, i) => [`many/${name(i + 1)}`, '']));

describe('a large folder while it arrives', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let relay: HeldRelay;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer({ sandbox: await makeSandbox({ ...TREE, 'small/a.txt': 'a' }) });
    relay = await heldRelay(server.url);
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, { ...server, url: relay.url });
  }, 60_000);

  afterAll(async () => {
    await relay.close();
    await shutDown(browser, server);
  });

  it('shows its first rows at once, busy and inert, then the whole folder', async () => {
    const { page } = browser;
    relay.holdAt(`"name":"${name(261)}"`);
    await page.goto(`${relay.url}/files/many/`);
    await page.locator(`[role="option"][aria-label="${name(1)}"]`).waitFor();
    expect(relay.holding()).toBe(true);
    // The first 50 rows are laid out, as for a folder that is all here.
    expect(await page.locator('[role="listbox"]').getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('[role="listbox"]').evaluate((box) => box.matches('[inert]'))).toBe(true);
    expect(await page.locator('[role="option"]').count()).toBeGreaterThan(10);
    expect(await page.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(1);
    // The header actions hold their place but wait, and no shortcut acts on a part of the folder.
    expect(await page.locator('.files-tools').evaluate((tools) => tools.matches('[inert]') && tools.querySelector('[role="toolbar"]') !== null)).toBe(true);
    await screenshot(page, 'files-arriving');
    await page.keyboard.press('Control+a');
    await page.waitForTimeout(100);
    expect(await page.getByText(/^\d+ selected$/).count()).toBe(0);

    relay.release();
    await page.locator('[role="listbox"]:not([aria-busy])').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(0);
    expect(await page.locator('.files-tools').evaluate((tools) => tools.matches('[inert]'))).toBe(false);
    await button(page, 'Delete').waitFor();
    expect((await renderedPaths(page))[0]).toBe(`/many/${name(1)}`);
    await item(page, name(1)).click();
    await page.keyboard.press('Control+a');
    await selectedText(page, MANY).waitFor();
    await page.keyboard.press('Escape');
  });

  it('looks right while arriving on a phone, dark, in Arabic (right to left)', async () => {
    const { page } = browser;
    const api = await apiAs(server);
    const as = (locale: string) => ({ what: 'user', which: ['locale'], data: { id: 1, locale } });
    expect((await api.call('PUT', '/api/users/1', as('ar'))).status).toBe(200);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => localStorage.setItem('filemgr.theme', 'dark'));
    try {
      relay.holdAt(`"name":"${name(261)}"`);
      await page.goto(`${relay.url}/files/many/`);
      await page.locator(`[role="listbox"][aria-busy="true"] [aria-label="${name(1)}"]`).waitFor();
      expect(await page.evaluate(() => [document.documentElement.dir, document.documentElement.dataset.theme])).toEqual(['rtl', 'dark']);
      // The wheel sits in the bar, inside the page's width.
      const wheel = await page.locator('.files-bar > [role="status"]').boundingBox();
      expect(wheel && wheel.x >= 0 && wheel.x + wheel.width <= 390).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, 'files-arriving-phone-dark-ar');
      // The toolbar keeps its line: the rows do not move when the rest arrives.
      const before = await page.locator(`[aria-label="${name(1)}"]`).boundingBox();
      relay.release();
      await page.locator('[role="listbox"]:not([aria-busy])').waitFor();
      expect(await page.locator(`[aria-label="${name(1)}"]`).boundingBox()).toEqual(before);
    } finally {
      relay.release();
      expect((await api.call('PUT', '/api/users/1', as('en'))).status).toBe(200);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
      await page.goto(`${relay.url}/files/`);
      await item(page, 'many').waitFor();
    }
  });

  it('a small folder arrives whole: it is never busy', async () => {
    const { page } = browser;
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { busySeen: string[] }).busySeen = seen;
      new MutationObserver(() => {
        if (document.querySelector('[role="listbox"][aria-busy]')) seen.push('busy');
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole('navigation', { name: 'Breadcrumbs', exact: true }).getByRole('link', { name: 'Home', exact: true }).click();
    await item(page, 'small').dblclick();
    await item(page, 'a.txt').waitFor();
    expect(await page.evaluate(() => (window as unknown as { busySeen: string[] }).busySeen)).toEqual([]);
  });

  it('a connection lost midway shows the error, not half a folder', async () => {
    const { page } = browser;
    relay.holdAt(`"name":"${name(261)}"`);
    await page.goto(`${relay.url}/files/many/`);
    await page.locator(`[role="listbox"][aria-busy="true"] [aria-label="${name(1)}"]`).waitFor();
    expect(relay.holding()).toBe(true);
    relay.cut();
    await page.getByRole('alert').filter({ hasText: "The server can't be reached." }).waitFor();
    expect(await page.locator('[role="option"]').count()).toBe(0);
  });

  it('loads without a script error other than the cut connection', () => {
    expect(problems.filter((p) => !/ERR_CONNECTION|Failed to load resource|network error/i.test(p))).toEqual([]);
  });
});
