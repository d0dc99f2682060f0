import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { dialog, dialogButton, item, runAction } from './support/files';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';

// beyond.md §2: file requests (upload links) and download limits, in real Chromium against the
// built executable. Visitors are fresh browsers: no account, no session.

interface Visitor {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** A fresh browser without an account: the given size, language and theme. */
async function visitor(options: { locale?: string; dark?: boolean; width?: number; height?: number } = {}): Promise<Visitor> {
  const profile = await mkdtemp(join(tmpdir(), 'filemgr-visitor-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    locale: options.locale ?? 'en-US',
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  if (options.dark) await context.addInitScript(() => localStorage.setItem('filemgr.theme', 'dark'));
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(60_000);
  return { context, page, close: async () => { await context.close(); await rm(profile, { recursive: true, force: true }); } };
}

const PHONE = { width: 390, height: 844 };

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function uploadRegion(page: Page) {
  return page.getByRole('region', { name: 'Upload', exact: true });
}

/** Picks files through "Choose files". */
async function choose(page: Page, paths: string[]): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), uploadRegion(page).getByRole('button', { name: 'Choose files', exact: true }).click()]);
  await chooser.setFiles(paths);
}

function received(page: Page) {
  return page.getByRole('list', { name: 'Received', exact: true }).getByRole('listitem');
}

describe('upload links and download limits', () => {
  let server: ServerHandle;
  let owner: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  let local: string;
  const big = randomBytes(50 * 1024 * 1024);

  beforeAll(async () => {
    server = await startServer({ tree: { 'inbox/report.pdf': 'the old report', 'again/keep.txt': 'k', 'shared/figures.txt': 'quarterly figures' } });
    api = await apiAs(server);
    owner = await launchBrowser();
    problems = watchProblems(owner.page);
    await signIn(owner.page, server);
    local = await mkdtemp(join(tmpdir(), 'filemgr-picked-'));
    await writeFile(join(local, 'holiday.bin'), big);
    await writeFile(join(local, 'report.pdf'), 'the new report');
    await writeFile(join(local, 'notes.txt'), 'some notes');
  }, 120_000);

  afterAll(async () => {
    await rm(local, { recursive: true, force: true });
    await shutDown(owner, server);
  });

  /** The owner makes a link in the share prompt of a folder or file of the root. */
  async function shareThroughPrompt(name: string, fill: (page: Page) => Promise<void>): Promise<void> {
    const page = owner.page;
    await page.goto(`${server.url}/files/`);
    await item(page, name).click();
    await runAction(page, 'Share');
    await fill(page);
    await screenshot(page, `upload-link-share-form-${name}-desktop-light-en`);
    await dialogButton(page, 'Share', 'Share').click();
    await expect.poll(() => dialog(page, 'Share').getByRole('listitem').count()).toBeGreaterThan(0);
  }

  it('the owner asks for files with the share prompt; a visitor on a phone sends three, one of 50 MB and one whose name is taken', async () => {
    await shareThroughPrompt('inbox', async (page) => {
      const type = page.getByRole('radiogroup', { name: 'Link type', exact: true });
      await type.getByRole('radio', { name: 'Upload link', exact: true }).check();
      await expect.poll(() => page.getByRole('spinbutton', { name: 'Download limit' }).count()).toBe(0);
    });
    await screenshot(owner.page, 'upload-link-share-prompt-desktop-light-en');
    const [link] = await api.json<Array<{ hash: string; kind: string }>>('/api/share/inbox/');
    expect(link?.kind).toBe('upload');
    const v = await visitor(PHONE);
    try {
      await v.page.goto(`${server.url}/share/${link?.hash}`);
      await expect.poll(() => uploadRegion(v.page).isVisible()).toBe(true);
      expect(await v.page.getByText('report.pdf').count()).toBe(0);
      await screenshot(v.page, 'upload-link-phone-light-en-empty');
      await choose(v.page, [join(local, 'holiday.bin'), join(local, 'report.pdf'), join(local, 'notes.txt')]);
      await expect.poll(() => v.page.getByRole('progressbar').count(), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => received(v.page).count(), { timeout: 180_000 }).toBe(3);
      expect(await received(v.page).allInnerTexts()).toEqual([expect.stringContaining('holiday.bin'), expect.stringContaining('report (1).pdf'), expect.stringContaining('notes.txt')]);
      await screenshot(v.page, 'upload-link-phone-light-en');
    } finally {
      await v.close();
    }
    const inbox = join(server.sandbox.root, 'inbox');
    expect((await readdir(inbox)).sort()).toEqual(['holiday.bin', 'notes.txt', 'report (1).pdf', 'report.pdf']);
    expect(sha256(await readFile(join(inbox, 'holiday.bin')))).toBe(sha256(big));
    expect(await readFile(join(inbox, 'report.pdf'), 'utf8')).toBe('the old report');
    expect(await readFile(join(inbox, 'report (1).pdf'), 'utf8')).toBe('the new report');
    const listing = await api.json<{ items: Array<{ name: string; size: number }> }>('/api/resources/inbox/');
    expect(listing.items.map((i) => i.name).sort()).toEqual(['holiday.bin', 'notes.txt', 'report (1).pdf', 'report.pdf']);
    const [after] = await api.json<Array<{ uploads: number }>>('/api/share/inbox/');
    expect(after?.uploads).toBe(3);
  }, 300_000);

  it('resumes a file after a reload from where the server is', async () => {
    const settings = await api.json<Record<string, unknown>>('/api/settings');
    expect((await api.call('PUT', '/api/settings', { ...settings, tus: { chunkSize: 4 * 1024 * 1024, retryCount: 3 } })).status).toBe(200);
    const created = JSON.parse((await api.call('POST', '/api/share/again/', { kind: 'upload' })).text) as { hash: string };
    const v = await visitor();
    try {
      const seen: Request[] = [];
      v.page.on('request', (r) => void (r.url().includes('/api/public/tus/') && seen.push(r)));
      await v.page.goto(`${server.url}/share/${created.hash}`);
      // The second chunk never reaches the server: the visitor reloads while it hangs.
      let patches = 0;
      await v.page.route(/\/api\/public\/tus\//, (route) => (route.request().method() === 'PATCH' && ++patches === 2 ? undefined : route.continue()));
      await choose(v.page, [join(local, 'holiday.bin')]);
      await expect.poll(() => patches, { timeout: 60_000 }).toBe(2);
      await v.page.unrouteAll({ behavior: 'ignoreErrors' });
      await v.page.reload();
      seen.length = 0;
      await choose(v.page, [join(local, 'holiday.bin')]);
      await expect.poll(() => received(v.page).count(), { timeout: 180_000 }).toBe(1);
      expect(seen.some((r) => r.method() === 'POST')).toBe(false);
      const firstPatch = seen.find((r) => r.method() === 'PATCH');
      // From the server's offset: the first chunk, and what of the cut one arrived (tus keeps it).
      const offset = Number(firstPatch?.headers()['upload-offset']);
      expect(offset).toBeGreaterThanOrEqual(4 * 1024 * 1024);
      expect(offset).toBeLessThan(big.length);
    } finally {
      await v.close();
    }
    expect(sha256(await readFile(join(server.sandbox.root, 'again', 'holiday.bin')))).toBe(sha256(big));
  }, 300_000);

  it('a password-protected upload link asks for the password, then takes files', async () => {
    const created = JSON.parse((await api.call('POST', '/api/share/again/', { kind: 'upload', password: 'letmein' })).text) as { hash: string };
    const v = await visitor(PHONE);
    try {
      await v.page.goto(`${server.url}/share/${created.hash}`);
      await v.page.getByRole('textbox', { name: 'Password', exact: true }).fill('letmein');
      await v.page.getByRole('button', { name: 'Submit', exact: true }).click();
      await expect.poll(() => uploadRegion(v.page).isVisible()).toBe(true);
      await choose(v.page, [join(local, 'report.pdf')]);
      await expect.poll(() => received(v.page).count(), { timeout: 60_000 }).toBe(1);
    } finally {
      await v.close();
    }
    expect(await readFile(join(server.sandbox.root, 'again', 'report.pdf'), 'utf8')).toBe('the new report');
  }, 120_000);

  it('a download link with a limit stops after it, and its page says so', async () => {
    await shareThroughPrompt('shared', async (page) => {
      await page.getByRole('spinbutton', { name: 'Download limit' }).fill('1');
    });
    const [link] = await api.json<Array<{ hash: string; maxDownloads: number }>>('/api/share/shared/');
    expect(link?.maxDownloads).toBe(1);
    const v = await visitor(PHONE);
    try {
      await v.page.goto(`${server.url}/share/${link?.hash}/figures.txt`);
      const first = await v.page.request.get(`${server.url}/api/public/dl/${link?.hash}/figures.txt`);
      expect(first.status()).toBe(200);
      expect(await first.text()).toBe('quarterly figures');
      expect((await v.page.request.get(`${server.url}/api/public/dl/${link?.hash}/figures.txt`)).status()).toBe(410);
      await v.page.reload();
      await expect.poll(() => v.page.getByText('This link has reached its download limit.').isVisible()).toBe(true);
      await screenshot(v.page, 'upload-link-limit-phone-light-en');
    } finally {
      await v.close();
    }
    await owner.page.goto(`${server.url}/settings/shares`);
    const row = owner.page.getByRole('row').filter({ hasText: '/shared/' });
    await expect.poll(() => row.innerText()).toMatch(/Download link[\s\S]*1 \/ 1/);
    await expect.poll(() => owner.page.getByRole('row').filter({ hasText: '/inbox/' }).innerText()).toMatch(/Upload link[\s\S]*3/);
    await screenshot(owner.page, 'upload-link-share-management-desktop-light-en');
  }, 120_000);

  it.each([
    { name: 'desktop-light-en', locale: 'en-US', dark: false, width: 1280, height: 800 },
    { name: 'desktop-dark-en', locale: 'en-US', dark: true, width: 1280, height: 800 },
    { name: 'phone-dark-en', locale: 'en-US', dark: true, ...PHONE },
    { name: 'desktop-light-ar', locale: 'ar', dark: false, width: 1280, height: 800 },
    { name: 'phone-dark-ar', locale: 'ar', dark: true, ...PHONE },
  ])('looks right: $name', async ({ name, ...look }) => {
    const [link] = await api.json<Array<{ hash: string }>>('/api/share/inbox/');
    const v = await visitor(look);
    try {
      await v.page.goto(`${server.url}/share/${link?.hash}`);
      // Located by structure: in ar the names are Arabic.
      await v.page.locator('section.link-upload').waitFor();
      await v.page.getByTestId('link-files').setInputFiles([join(local, 'notes.txt')]);
      await expect.poll(() => v.page.locator('.link-received li').count(), { timeout: 60_000 }).toBe(1);
      if (look.locale === 'ar') expect(await v.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await screenshot(v.page, `upload-link-${name}`);
    } finally {
      await v.close();
    }
    expect((await stat(join(server.sandbox.root, 'inbox'))).isDirectory()).toBe(true);
  }, 120_000);

  it('had no script errors on the owner page', () => {
    expect(problems).toEqual([]);
  });
});
