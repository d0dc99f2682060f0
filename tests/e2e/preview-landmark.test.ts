import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn } from './support/session';
import { dialog, updateAdmin } from './support/files';

const TREE = { 'pv/data.bin': Buffer.from([0, 1, 2, 3, 0, 255]), 'pv/other.bin': 'x\0y', 'pv/sub': null };

function main(page: Page) {
  return page.getByRole('main');
}

describe('the preview in the page', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    await updateAdmin(await apiAs(server), { viewMode: 'list' });
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('sits inside the main landmark, the no-preview card too', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/pv/data.bin`);
    const card = main(page).getByRole('region', { name: 'data.bin', exact: true });
    await card.getByText('There is no preview for this file.', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Open file', exact: true }).waitFor();
    await main(page).getByRole('button', { name: 'Close', exact: true }).waitFor();
    expect(await page.evaluate(() => document.querySelector('.preview')?.closest('main') !== null)).toBe(true);
    // Only the preview is reachable meanwhile: the header and the sidebar wait behind it.
    const newFolder = page.getByRole('button', { name: 'New folder', exact: true });
    expect(await newFolder.evaluate((b) => b.closest('[inert]') !== null)).toBe(true);
    expect(await main(page).getByRole('button', { name: 'Close', exact: true }).evaluate((b) => b.closest('[inert]') === null)).toBe(true);
  });

  for (const how of ['Close', 'back', 'Escape', 'a new page load'] as const) {
    it(`takes a click on "New folder" right after leaving a preview for its folder (${how})`, async () => {
      const { page } = browser;
      await page.goto(`${server.url}/files/pv/`);
      await page.getByRole('option', { name: 'other.bin', exact: true }).dblclick();
      await page.getByRole('region', { name: 'other.bin', exact: true }).waitFor();
      if (how === 'back') await page.goBack();
      // The files screen is a lazy chunk: the sidebar shows before it, and a click there then must not be lost.
      else if (how === 'a new page load') await page.goto(`${server.url}/files/pv/`, { waitUntil: 'commit' });
      else if (how === 'Escape') await page.keyboard.press('Escape');
      else await page.getByRole('button', { name: 'Close', exact: true }).click();
      // At once: no waiting for the listing.
      await page.getByRole('button', { name: 'New folder', exact: true }).click();
      await dialog(page, 'New folder').waitFor({ timeout: 5000 });
      await dialog(page, 'New folder').getByRole('button', { name: 'Cancel', exact: true }).click();
    });
  }
});
