import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { shootLooks } from './support/looks';
import { apiAs, signIn, watchProblems } from './support/session';

/** The "dav" strings of a UI language (web/i18n/locales/<code>.json). */
function davStrings(code: string): { title: string; copy: string } {
  const all = JSON.parse(readFileSync(new URL(`../../web/i18n/locales/${code}.json`, import.meta.url), 'utf8')) as { dav: { title: string; copy: string } };
  return all.dav;
}

/** The profile's "WebDAV address" section (beyond.md §1, §9): a region named by its heading. */
function davSection(page: Page, name = 'WebDAV address'): Locator {
  return page.getByRole('region', { name, exact: true });
}

async function openProfile(page: Page, server: ServerHandle): Promise<void> {
  await page.goto(`${server.url}/settings/profile`);
  await page.getByRole('checkbox', { name: 'Hide dotfiles', exact: true }).waitFor();
}

describe('the WebDAV address on the profile page', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer({ tree: { 'notes.txt': 'x' } });
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('shows the address of /dav/ on this server, named "WebDAV address", with steps for each system', async () => {
    const { page } = browser;
    await openProfile(page, server);
    const section = davSection(page);
    const address = section.getByRole('textbox', { name: 'WebDAV address', exact: true });
    expect(await address.inputValue()).toBe(`${server.url}/dav/`);
    expect(await address.getAttribute('readonly')).not.toBeNull();
    for (const system of ['Windows', 'macOS', 'Linux', 'Phones']) {
      expect(await section.getByRole('term').filter({ hasText: system }).count(), system).toBe(1);
    }
    expect(await section.textContent()).toContain('Map network drive');
    expect(await section.getByText(`mount -t davfs ${server.url}/dav/ /mnt/files`, { exact: true }).getAttribute('dir')).toBe('ltr');
  });

  it('copies the address to the clipboard with a notice', async () => {
    const { page } = browser;
    await openProfile(page, server);
    await page.evaluate(() => navigator.clipboard.writeText('something else'));
    await davSection(page).getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Address copied!' }).waitFor({ state: 'visible' });
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/dav/`);
  });

  it('names the section and its button in the user\'s language (ar, right to left)', async () => {
    const { page } = browser;
    const api = await apiAs(server);
    const ar = davStrings('ar');
    const paths = await shootLooks(page, api, {
      name: 'profile-webdav',
      locale: 'ar',
      show: async () => {
        await page.goto(`${server.url}/settings/profile`);
        await davSection(page, ar.title).getByRole('button', { name: ar.copy, exact: true }).waitFor();
        expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
        // The address itself still reads left to right.
        expect(await davSection(page, ar.title).getByRole('textbox').getAttribute('dir')).toBe('ltr');
      },
    });
    const english = await shootLooks(page, api, {
      name: 'profile-webdav',
      locale: 'en',
      show: () => openProfile(page, server),
    });
    expect(paths.length + english.length).toBe(8);
    expect(problems).toEqual([]);
  });
});

describe('the profile page of a server started with --disableWebDAV', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer({ args: ['--disableWebDAV'] });
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('has no WebDAV address section, and /dav/ answers 404', async () => {
    const { page } = browser;
    await openProfile(page, server);
    expect(await page.getByRole('heading', { name: 'Change password' }).count()).toBe(1);
    expect(await davSection(page).count()).toBe(0);
    // Neither the address nor the steps (the API tokens' help may still name WebDAV clients).
    expect(await page.getByText('WebDAV address', { exact: false }).count()).toBe(0);
    expect(await page.getByText('/dav/', { exact: false }).count()).toBe(0);
    const answer = await fetch(`${server.url}/dav/`, { method: 'PROPFIND', headers: { Depth: '0' } });
    expect(answer.status).toBe(404);
  });
});
