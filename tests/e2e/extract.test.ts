import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ar from '../../web/i18n/locales/ar.json';
import { launchBrowser, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, type ApiClient } from './support/session';
import { button, dialog, dialogButton, item, openFolder, runAction, selectedText, untilOnDisk, updateAdmin } from './support/files';
import { shootLooks } from './support/looks';

/** A zip made by Info-ZIP's zip from `files`, and a hostile one with a `../` entry made by Python. */
function archives(): { good: Buffer; evil: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'filemgr-e2e-zip-'));
  try {
    mkdirSync(join(dir, 'album/sub'), { recursive: true });
    writeFileSync(join(dir, 'album/one.txt'), 'one\n');
    writeFileSync(join(dir, 'album/sub/two.txt'), 'two\n');
    execFileSync('zip', ['-q', '-r', 'photos.zip', 'album'], { cwd: dir });
    execFileSync('/usr/bin/python3', ['-c', "import zipfile\nz=zipfile.ZipFile('evil.zip','w')\nz.writestr('fine.txt','f')\nz.writestr('../escaped.txt','x')\nz.close()"], { cwd: dir });
    return { good: readFileSync(join(dir, 'photos.zip')), evil: readFileSync(join(dir, 'evil.zip')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pickerOption(page: Page, name: string) {
  return dialog(page, 'Extract').getByRole('listbox', { name: 'Folders', exact: true }).getByRole('option', { name, exact: true });
}

/** Runs the header action in Arabic: on the bar, or in the "More actions" menu of a phone. */
async function runArabicExtract(page: Page): Promise<void> {
  const bar = page.getByRole('toolbar', { name: ar.actions.toolbar, exact: true });
  const onBar = bar.getByRole('button', { name: ar.extract.action, exact: true });
  const more = bar.getByRole('button', { name: ar.actions.more, exact: true });
  await onBar.or(more).first().waitFor();
  if (await onBar.isVisible()) return onBar.click();
  await more.click();
  await page.getByRole('menu', { name: ar.actions.more, exact: true }).getByRole('menuitem', { name: ar.extract.action, exact: true }).click();
}

describe('Extract (beyond.md §5)', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  const disk = (rel: string): string => join(server.sandbox.root, rel);

  beforeAll(async () => {
    const { good, evil } = archives();
    server = await startServer({ tree: { 'ex/photos.zip': good, 'ex/evil.zip': evil, 'ex/notes.txt': 'n', 'ex/target': null } });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'list' });
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('extracts a zip into a new folder inside the folder picked in the dialog', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/ex/', expect: 'photos.zip' });
    await item(page, 'photos.zip').click();
    await selectedText(page, 1).waitFor();
    await runAction(page, 'Extract');
    await pickerOption(page, 'target').click();
    expect(await dialog(page, 'Extract').getByRole('textbox', { name: 'Subfolder', exact: true }).inputValue()).toBe('photos');
    await dialog(page, 'Extract').getByText('Destination: /ex/target/photos/', { exact: true }).waitFor();
    await dialogButton(page, 'Extract', 'Extract').click();
    await untilOnDisk(disk('ex/target/photos/album/sub/two.txt'));
    expect(readFileSync(disk('ex/target/photos/album/one.txt'), 'utf8')).toBe('one\n');
    await page.getByRole('status').getByText('Extracted into /ex/target/photos/', { exact: true }).waitFor();
  });

  it('a hostile zip answers with an error naming the refused entry, and nothing is written', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/ex/', expect: 'evil.zip' });
    await item(page, 'evil.zip').click();
    await runAction(page, 'Extract');
    await dialogButton(page, 'Extract', 'Extract').click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toContain('“../escaped.txt”');
    expect(existsSync(disk('ex/evil'))).toBe(false);
    expect(existsSync(disk('escaped.txt'))).toBe(false);
    await alert.getByRole('button', { name: 'Close', exact: true }).click();
  });

  it('is offered for archives only', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/ex/', expect: 'notes.txt' });
    await item(page, 'notes.txt').click();
    await selectedText(page, 1).waitFor();
    await page.getByRole('toolbar', { name: 'File actions', exact: true }).waitFor();
    expect(await button(page, 'Extract').count()).toBe(0);
  });

  it('looks right: desktop and phone, light and dark, English and Arabic', async () => {
    const { page } = browser;
    const en = await shootLooks(page, api, { name: 'extract-dialog', locale: 'en', show: async () => {
      await page.goto(`${server.url}/files/ex/`);
      await item(page, 'photos.zip').click();
      await runAction(page, 'Extract');
      await pickerOption(page, 'target').waitFor();
    } });
    const arShots = await shootLooks(page, api, { name: 'extract-dialog', locale: 'ar', show: async () => {
      await page.goto(`${server.url}/files/ex/`);
      await page.locator('[role="option"][data-path="/ex/photos.zip"]').click();
      await runArabicExtract(page);
      await dialog(page, ar.extract.title).getByRole('listbox', { name: ar.listing.folders, exact: true }).getByRole('option', { name: 'target', exact: true }).waitFor();
    } });
    expect([...en, ...arShots]).toHaveLength(8);
  });
});
