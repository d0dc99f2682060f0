import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, makeSandbox, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { heldRelay, type HeldRelay } from './support/held-relay';
import { signIn, watchProblems } from './support/session';
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
    // No header actions, and no shortcut acts on a part of the folder.
    expect(await button(page, 'Delete').count()).toBe(0);
    await screenshot(page, 'files-arriving');
    await page.keyboard.press('Control+a');
    await page.waitForTimeout(100);
    expect(await page.getByText(/^\d+ selected$/).count()).toBe(0);

    relay.release();
    await page.locator('[role="listbox"]:not([aria-busy])').waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(0);
    expect((await renderedPaths(page))[0]).toBe(`/many/${name(1)}`);
    await item(page, name(1)).click();
    await page.keyboard.press('Control+a');
    await selectedText(page, MANY).waitFor();
    await page.keyboard.press('Escape');
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
