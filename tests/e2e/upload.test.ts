import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, dialog, dialogButton, item, openFolder, until, untilOnDisk, updateAdmin } from './support/files';
import { launchBrowser, screenshot, shutDown, startServer, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import {
  dragFilesOver, holdTus, openPicker, patchOffset, recordNotices, successTexts, uploadFiles, uploadRow, uploads, type Held,
} from './support/upload';

const MIB = 1024 * 1024;

const TREE = {
  'pick': null,
  'tree': null,
  'drop/f.txt': 'f',
  'drop/sub/inner.txt': 'inner',
  'drop/chosen/inner.txt': 'chosen',
  'cf/a.txt': 'old a',
  'cf/b.txt': 'old b',
  'late': null,
  'cancel': null,
  'look': null,
};

describe('browser uploads: picker, drop, conflicts, cancel', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  const disk = (rel: string): string => join(server.sandbox.root, rel);
  const text = (rel: string): string => readFileSync(disk(rel), 'utf8');
  /** A file of `bytes` bytes beside the served root, for the picker. */
  const localFile = (name: string, bytes: number): string => {
    const path = join(server.sandbox.dir, name);
    writeFileSync(path, Buffer.alloc(bytes, name.length));
    return path;
  };

  /** Waits for the batch's end: the region gone and one more "Upload complete" notice. */
  async function untilDone(page: Page, notices: number): Promise<void> {
    await until(async () => (await successTexts(page)).filter((t) => t === 'Upload complete').length === notices, `notice ${notices}`);
    await uploads(page).waitFor({ state: 'hidden' });
  }

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'list', sorting: { by: 'name', asc: true } });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await recordNotices(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('uploads files picked through the Upload dialog\'s File button; the listing reloads, one notice', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/pick/' });
    await uploadFiles(page, [{ name: 'one.txt', content: 'first' }, { name: 'two words.txt', content: 'second' }]);
    await untilDone(page, 1);
    expect(text('pick/one.txt')).toBe('first');
    expect(text('pick/two words.txt')).toBe('second');
    await item(page, 'one.txt').waitFor();
    await item(page, 'two words.txt').waitFor();
    // One notice for the batch, not one per file.
    expect((await successTexts(page)).filter((t) => t === 'Upload complete')).toHaveLength(1);
  });

  it('uploads a folder picked through Folder with its tree', async () => {
    const { page } = browser;
    const local = join(server.sandbox.dir, 'local/photos');
    mkdirSync(join(local, '2024/june'), { recursive: true });
    writeFileSync(join(local, 'cover.txt'), 'cover');
    writeFileSync(join(local, '2024/a.txt'), 'a');
    writeFileSync(join(local, '2024/june/b.txt'), 'b');
    await openFolder(page, server, { folder: '/tree/' });
    const chooser = await openPicker(page, 'Folder');
    await chooser.setFiles(local);
    await untilOnDisk(disk('tree/photos/2024/june/b.txt'));
    await item(page, 'photos').waitFor();
    expect(text('tree/photos/cover.txt')).toBe('cover');
    expect(text('tree/photos/2024/a.txt')).toBe('a');
    expect(text('tree/photos/2024/june/b.txt')).toBe('b');
  });

  it('opens the file picker directly where the browser cannot pick folders', async () => {
    const page = await browser.context.newPage();
    try {
      // A browser without directory entries: the Upload dialog would offer nothing more than File.
      await page.addInitScript(() => {
        delete (HTMLInputElement.prototype as { webkitdirectory?: boolean }).webkitdirectory;
      });
      await openFolder(page, server, { folder: '/pick/', expect: 'one.txt' });
      const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button(page, 'Upload').click()]);
      expect(await dialog(page, 'Upload').count()).toBe(0);
      expect(chooser.isMultiple()).toBe(true);
      await chooser.setFiles([{ name: 'direct.txt', mimeType: 'text/plain', buffer: Buffer.from('direct') }]);
      await untilOnDisk(disk('pick/direct.txt'));
      expect(text('pick/direct.txt')).toBe('direct');
    } finally {
      await page.close();
    }
  });

  it('uploads files dropped on the listing into the folder, on a folder item into it, never onto a selected folder', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/drop/', expect: 'f.txt' });
    // A drag of listing items (drag to move) carries no files: no upload feedback for it.
    const itemDrag = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.setData('application/x-filemgr-items', 'f.txt');
      return dt;
    });
    await item(page, 'sub').dispatchEvent('dragover', { dataTransfer: itemDrag });
    expect(await page.locator('[data-upload-target], #main[data-upload-drop]').count()).toBe(0);
    // The listing area (a file item is part of it): the whole main area is marked.
    let drop = await dragFilesOver(page, item(page, 'f.txt'), [{ name: 'here.txt', content: 'here' }]);
    await page.locator('#main[data-upload-drop]').waitFor();
    await page.getByText('Drop to upload into “drop”', { exact: true }).waitFor();
    await screenshot(page, 'upload-drop');
    await drop();
    await untilOnDisk(disk('drop/here.txt'));
    expect(text('drop/here.txt')).toBe('here');
    await item(page, 'here.txt').waitFor();

    // A folder item: only that item is marked, and the file goes into it.
    drop = await dragFilesOver(page, item(page, 'sub'), [{ name: 'deep.txt', content: 'deep' }]);
    await page.locator('[data-upload-target][data-path="/drop/sub/"]').waitFor();
    expect(await page.locator('#main[data-upload-drop]').count()).toBe(0);
    await page.getByText('Drop to upload into “sub”', { exact: true }).waitFor();
    await drop();
    await untilOnDisk(disk('drop/sub/deep.txt'));

    // A selected folder takes no drop: nothing is marked and nothing is sent.
    await item(page, 'chosen').click();
    drop = await dragFilesOver(page, item(page, 'chosen'), [{ name: 'refused.txt', content: 'no' }]);
    expect(await page.locator('[data-upload-target], #main[data-upload-drop]').count()).toBe(0);
    await drop();
    // A later upload ends after the refused drop would have: it proves nothing else was sent.
    drop = await dragFilesOver(page, page.locator('#main'), [{ name: 'after.txt', content: 'after' }]);
    await drop();
    await untilOnDisk(disk('drop/after.txt'));
    expect(existsSync(disk('drop/chosen/refused.txt'))).toBe(false);
    expect(existsSync(disk('drop/refused.txt'))).toBe(false);
    expect(await page.locator('[data-upload-target], #main[data-upload-drop]').count()).toBe(0);
  });

  it('asks Replace / Continue / Cancel when a name exists, and does what was chosen', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/cf/', expect: 'a.txt' });
    await uploadFiles(page, [{ name: 'a.txt', content: 'new a' }, { name: 'c.txt', content: 'new c' }]);
    const replace = dialog(page, 'Replace');
    await replace.getByText('a.txt', { exact: true }).waitFor();
    expect(await replace.getByText('c.txt', { exact: true }).count()).toBe(0);
    await screenshot(page, 'upload-replace');
    await dialogButton(page, 'Replace', 'Replace').click();
    await until(() => existsSync(disk('cf/c.txt')) && text('cf/a.txt') === 'new a', 'a.txt replaced and c.txt uploaded');
    expect(text('cf/c.txt')).toBe('new c');
    await uploads(page).waitFor({ state: 'hidden' });

    await uploadFiles(page, [{ name: 'a.txt', content: 'kept both' }, { name: 'd.txt', content: 'd' }]);
    await dialogButton(page, 'Replace', 'Continue').click();
    await untilOnDisk(disk('cf/a (1).txt'));
    await untilOnDisk(disk('cf/d.txt'));
    expect(text('cf/a (1).txt')).toBe('kept both');
    expect(text('cf/a.txt')).toBe('new a');
    await item(page, 'a (1).txt').waitFor();

    await uploadFiles(page, [{ name: 'b.txt', content: 'never' }, { name: 'e.txt', content: 'never' }]);
    await dialogButton(page, 'Replace', 'Cancel').click();
    await dialog(page, 'Replace').waitFor({ state: 'hidden' });
    await uploadFiles(page, [{ name: 'f.txt', content: 'f' }]);
    await untilOnDisk(disk('cf/f.txt'));
    expect(text('cf/b.txt')).toBe('old b');
    expect(existsSync(disk('cf/e.txt'))).toBe(false);
    expect(readdirSync(disk('cf')).sort()).toEqual(['a (1).txt', 'a.txt', 'b.txt', 'c.txt', 'd.txt', 'f.txt']);
  });

  it('opens the Replace dialog when the server answers 409 (a file created after the listing loaded)', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/late/' });
    writeFileSync(disk('late/x.txt'), 'made meanwhile');
    await uploadFiles(page, [{ name: 'x.txt', content: 'from the browser' }]);
    await dialogButton(page, 'Replace', 'Replace').click();
    await until(() => text('late/x.txt') === 'from the browser', 'x.txt replaced after the 409');
  });

  it('cancels one file of the queue; the others finish', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/cancel/' });
    const hold = await holdTus(page, (r) => decodeURIComponent(r.url()).includes('/cancel/drop.bin'));
    try {
      await uploadFiles(page, [{ name: 'drop.bin', content: 'x'.repeat(4096) }, { name: 'keep.bin', content: 'kept' }]);
      await until(() => hold.held.length > 0, 'the held creation of drop.bin');
      await uploadRow(page, 'drop.bin').getByRole('button', { name: 'Cancel', exact: true }).click();
      await uploads(page).waitFor({ state: 'hidden' });
      await untilOnDisk(disk('cancel/keep.bin'));
    } finally {
      await Promise.all(hold.held.map((h: Held) => h.abort()));
      await hold.stop();
    }
    await item(page, 'keep.bin').waitFor();
    expect(readdirSync(disk('cancel'))).toEqual(['keep.bin']);
  });

  it('shows the queue with a bar per file and overall, at most five running (desktop, phone, dark)', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/look/' });
    // Chunks after the first are held: each file stops part-way, and the sixth waits its turn.
    const sizes = [11, 12, 15, 20, 25];
    const names = ['holiday-photos-2024-full-resolution-archive.zip', 'notes.txt', 'report.pdf', 'song.mp3', 'video.mkv'];
    const paths = names.map((name, i) => localFile(name, (sizes[i] ?? 1) * MIB));
    const hold = await holdTus(page, (r) => patchOffset(r) === 10 * MIB);
    try {
      await uploadFiles(page, [...paths, localFile('later.txt', 1000)]);
      const region = uploads(page);
      await region.getByRole('progressbar', { name: 'Upload progress', exact: true }).waitFor();
      for (const name of [...names, 'later.txt']) await region.getByRole('progressbar', { name, exact: true }).waitFor();
      await until(() => hold.held.length === 5, 'five uploads running at once', 30_000);
      await until(async () => (await region.getByText('Waiting', { exact: true }).count()) === 1, 'the sixth file waiting');
      await region.getByText(/\/s · .+ left$/).waitFor();
      await until(async () => (await region.getByText('40%', { exact: true }).count()) === 1, 'video.mkv at 40%');
      await screenshot(page, 'upload-queue');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'upload-queue-phone');
      await page.evaluate(() => { document.documentElement.dataset.theme = 'dark'; });
      await screenshot(page, 'upload-queue-phone-dark');
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshot(page, 'upload-queue-dark');
      await page.evaluate(() => { document.documentElement.dataset.theme = ''; });
    } finally {
      for (const h of hold.held) await h.release();
      await hold.stop();
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await uploads(page).waitFor({ state: 'hidden', timeout: 60_000 });
    expect(readdirSync(disk('look')).sort()).toEqual([...names, 'later.txt'].sort());
    expect(statSync(disk('look/video.mkv')).size).toBe(25 * MIB);
  });

  it('shows the Upload dialog and the queue right to left in Arabic', async () => {
    const { page } = browser;
    await updateAdmin(api, { locale: 'ar' });
    try {
      await page.goto(`${server.url}/files/look/`);
      await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      await page.getByRole('option', { name: 'notes.txt', exact: true }).waitFor();
      await page.getByRole('button', { name: 'رفع', exact: true }).click();
      await page.getByRole('dialog', { name: 'رفع', exact: true }).waitFor();
      await screenshot(page, 'upload-dialog-ar');
      await page.keyboard.press('Escape');
      const hold = await holdTus(page, (r) => patchOffset(r) === 10 * MIB);
      try {
        const chooser = await Promise.all([page.waitForEvent('filechooser'), (async () => {
          await page.getByRole('button', { name: 'رفع', exact: true }).click();
          await page.getByRole('dialog', { name: 'رفع', exact: true }).getByRole('button', { name: 'ملف', exact: true }).click();
        })()]);
        await chooser[0].setFiles(localFile('تقرير.txt', 14 * MIB));
        await until(() => hold.held.length === 1, 'the held chunk', 30_000);
        await page.getByRole('region', { name: 'عمليات الرفع', exact: true }).waitFor();
        await screenshot(page, 'upload-queue-ar');
        await page.setViewportSize({ width: 390, height: 844 });
        await screenshot(page, 'upload-queue-phone-ar');
      } finally {
        for (const h of hold.held) await h.release();
        await hold.stop();
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      await untilOnDisk(disk('look/تقرير.txt'));
      await page.getByRole('region', { name: 'عمليات الرفع', exact: true }).waitFor({ state: 'hidden', timeout: 60_000 });
    } finally {
      await updateAdmin(api, { locale: 'en' });
    }
  });

  it('shows the Upload dialog with File and Folder', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/pick/', expect: 'one.txt' });
    await button(page, 'Upload').click();
    await dialogButton(page, 'Upload', 'Folder').waitFor();
    await screenshot(page, 'upload-dialog');
    await page.keyboard.press('Escape');
    await dialog(page, 'Upload').waitFor({ state: 'hidden' });
  });

  it('runs without a script error', () => {
    // The browser logs the 409 that the Replace dialog answers as a failed load.
    expect(problems.filter((p) => !p.includes('status of 409 (Conflict)'))).toEqual([]);
  });
});
