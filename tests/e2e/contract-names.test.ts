import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialog, dialogButton, openFolder, updateAdmin } from './support/files';
import { launchBrowser, screenshot, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, watchProblems } from './support/session';

function sidebarButton(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('button', { name, exact: true });
}

/** Names a new folder in /here/ through the sidebar's "New folder" dialog. */
async function newFolder(page: Page, name: string): Promise<void> {
  await sidebarButton(page, 'New folder').click();
  await dialog(page, 'New folder').getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialogButton(page, 'New folder', 'Create').click();
}

// Names of ui.md that the app had slipped from, and "New folder" on a name that exists.
describe('the accessible names of ui.md and New folder on a taken name', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];
  const disk = (rel: string): string => join(server.sandbox.root, rel);

  beforeAll(async () => {
    server = await startServer({ tree: { 'here/Docs/inside.txt': 'x', 'here/a.txt': 'a' } });
    await updateAdmin(await apiAs(server), { viewMode: 'list' });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('says a folder name exists, as New file does, instead of opening the folder', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/here/', expect: 'Docs' });
    for (const taken of ['Docs', 'a.txt']) {
      await newFolder(page, taken);
      const alert = page.getByRole('alert').filter({ hasText: 'An item with this name already exists.' });
      await alert.waitFor();
      expect(page.url()).toMatch(/\/files\/here\/$/);
      expect(await dialog(page, 'New folder').isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await dialog(page, 'New folder').waitFor({ state: 'hidden' });
      await alert.getByRole('button', { name: 'Close', exact: true }).click();
    }
    expect(readdirSync(disk('here')).sort()).toEqual(['Docs', 'a.txt']);
    expect(readdirSync(disk('here/Docs'))).toEqual(['inside.txt']);

    await newFolder(page, 'Fresh');
    await page.waitForURL(/\/files\/here\/Fresh\/?$/);
    expect(statSync(disk('here/Fresh')).isDirectory()).toBe(true);
  });

  it('closes Help with "OK"', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/here/', expect: 'Docs' });
    await sidebarButton(page, 'Help').click();
    await dialog(page, 'Help').waitFor();
    await screenshot(page, 'help');
    await dialogButton(page, 'Help', 'OK').click();
    await dialog(page, 'Help').waitFor({ state: 'hidden' });
  });

  it('opens the sidebar at phone width with "Toggle sidebar"', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await openFolder(page, server, { folder: '/here/', expect: 'Docs' });
      const toggle = page.getByRole('button', { name: 'Toggle sidebar', exact: true });
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await sidebarButton(page, 'Help').waitFor();
      // The drawer slides in (0.2 s): the picture is taken once it is in place.
      await page.waitForFunction(() => document.getElementById('sidebar')?.getBoundingClientRect().left === 0);
      await screenshot(page, 'sidebar-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('runs without a script error', () => {
    expect(problems).toEqual([]);
  });
});
