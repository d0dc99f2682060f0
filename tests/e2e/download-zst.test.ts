import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn } from './support/session';
import { dialog, dialogButton, item, openFolder, runAction, selectedText, updateAdmin } from './support/files';

// The tar.zst button of the "Download" dialog (issue P1): the archive the server streams is what
// Debian's tar --zstd lists and extracts.

const TREE = {
  'zst/one.txt': 'one',
  'zst/sub/two.txt': 'two',
};

async function openDownloadDialog(page: Page): Promise<void> {
  await item(page, 'sub').click();
  await item(page, 'one.txt').click({ modifiers: ['Control'] });
  await selectedText(page, 2).waitFor();
  await runAction(page, 'Download');
  await dialogButton(page, 'Download', 'tar.zst').waitFor();
}

describe('the download dialog', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    await updateAdmin(await apiAs(server), { viewMode: 'list', sorting: { by: 'name', asc: false } });
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('downloads a selection as tar.zst that tar --zstd extracts', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/zst/', expect: 'one.txt' });
    await openDownloadDialog(page);
    await screenshot(page, 'download-dialog-desktop');
    const [download] = await Promise.all([page.waitForEvent('download'), dialogButton(page, 'Download', 'tar.zst').click()]);
    await dialog(page, 'Download').waitFor({ state: 'hidden' });
    expect(download.suggestedFilename()).toBe('_zst.tar.zst');
    const file = join(server.sandbox.dir, 'download.tar.zst');
    await download.saveAs(file);
    const members = execFileSync('tar', ['--zstd', '-tf', file], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
    expect(members).toEqual(['one.txt', 'sub/', 'sub/two.txt']);
    expect(execFileSync('tar', ['--zstd', '-xOf', file, 'sub/two.txt'], { encoding: 'utf8' })).toBe('two');
  });

  it('fits its eight format buttons on a phone', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    await openFolder(page, server, { folder: '/zst/', expect: 'one.txt' });
    await openDownloadDialog(page);
    const box = await dialogButton(page, 'Download', 'tar.zst').boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
    await screenshot(page, 'download-dialog-phone');
    await page.keyboard.press('Escape');
    await dialog(page, 'Download').waitFor({ state: 'hidden' });
  });
});
