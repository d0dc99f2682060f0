import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { chromium, type BrowserContext, type Download, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { launchBrowser, screenshot, startServer, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, watchProblems } from './support/session';

// product.md §2 "Share page (public)", §4, §9 (100 items plus 100 per click, 3 trailing crumbs);
// ui.md "Public share page"; api.md §3.16. Every visit is a fresh browser: no sign-in, no cookie.

const PASSWORD = 'open sesame';

/** A small RGB gradient PNG, so the shared image has something to show. */
function png(width: number, height: number): Buffer {
  const rows = Array.from({ length: height }, (_, y) => Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, (_, x) => [40 + x, 90 + y, 200]).flat())]));
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const size = Buffer.alloc(4);
    size.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([size, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

const MANY = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`many/item-${String(i).padStart(3, '0')}.txt`, `item ${i}`]));
const TREE = {
  'project/readme.txt': 'read me first',
  'project/notes.md': '# notes',
  'project/photo.png': png(160, 100),
  'project/docs/guide.txt': 'the guide',
  'project/docs/a/b/c/d/deep.txt': 'deep down',
  'report.txt': 'quarterly figures',
  'empty': null,
  ...MANY,
};

interface Visitor {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

/** A fresh browser, as a visitor who got the link: no session, the given language and theme. */
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
  page.setDefaultTimeout(20_000);
  return { context, page, close: async () => { await context.close(); await rm(profile, { recursive: true, force: true }); } };
}

function listbox(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Files and folders', exact: true });
}

function option(page: Page, name: string): Locator {
  return listbox(page).getByRole('option', { name, exact: true });
}

function button(page: Page, name: string): Locator {
  return page.getByRole('button', { name, exact: true });
}

async function downloadBy(page: Page, control: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), control.click()]);
  return download;
}

async function savedTo(server: ServerHandle, download: Download): Promise<string> {
  const path = join(server.sandbox.dir, `dl-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(path);
  return path;
}

function zipEntries(path: string): string[] {
  return execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
}

/** Opens a page of the password share (the password lives in the page only) and unlocks it. */
async function unlock(page: Page, url: string, expect = 'readme.txt'): Promise<void> {
  await page.goto(url);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await page.keyboard.press('Enter');
  await option(page, expect).waitFor();
}

describe('the public share page', () => {
  let server: ServerHandle;
  const links = { project: '', many: '', report: '', empty: '' };

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    const api = await apiAs(server);
    const share = async (path: string, password = ''): Promise<string> => {
      const answer = await api.call('POST', `/api/share${path}`, { expires: '', unit: 'hours', password });
      expect(answer.status).toBe(200);
      return `${server.url}/share/${(JSON.parse(answer.text) as { hash: string }).hash}`;
    };
    links.project = await share('/project/', PASSWORD);
    links.many = await share('/many/');
    links.report = await share('/report.txt');
    links.empty = await share('/empty/');
  });

  afterAll(() => shutDown(undefined, server));

  it('asks for the password, says "Wrong credentials" only after a wrong one, then shows the folder', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      const problems = watchProblems(page);
      await page.goto(links.project);
      await page.getByRole('heading', { name: 'Password', exact: true }).waitFor();
      const field = page.getByRole('textbox', { name: 'Password', exact: true });
      await button(page, 'Submit').click();
      await field.waitFor();
      expect(await page.getByText('Wrong credentials', { exact: true }).count()).toBe(0);
      await field.fill('not it');
      await button(page, 'Submit').click();
      await page.getByText('Wrong credentials', { exact: true }).waitFor();
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Download folder', exact: true }).waitFor();
      expect(await listbox(page).getByRole('option').count()).toBe(4);
      expect(await option(page, 'docs').getAttribute('aria-selected')).toBe('false');
      // The wrong attempt answered 401 in the console; nothing else went wrong.
      expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    } finally {
      await v.close();
    }
  });

  it('downloads one selected file, a selection as a zip and the whole folder as a zip', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      await unlock(page, links.project);
      await option(page, 'readme.txt').click();
      expect(await option(page, 'readme.txt').getAttribute('aria-selected')).toBe('true');
      const one = await downloadBy(page, page.getByRole('toolbar').getByRole('button', { name: 'Download', exact: true }));
      expect(await readFile(await savedTo(server, one), 'utf8')).toBe('read me first');

      await option(page, 'notes.md').click({ modifiers: ['Control'] });
      await option(page, 'docs').click({ modifiers: ['Control'] });
      const several = await downloadBy(page, page.getByRole('toolbar').getByRole('button', { name: 'Download', exact: true }));
      const picked = await savedTo(server, several);
      expect(zipEntries(picked)).toEqual(['docs/', 'docs/a/', 'docs/a/b/', 'docs/a/b/c/', 'docs/a/b/c/d/', 'docs/a/b/c/d/deep.txt', 'docs/guide.txt', 'notes.md', 'readme.txt']);

      const all = await downloadBy(page, page.getByRole('link', { name: 'Download', exact: true }));
      const whole = await savedTo(server, all);
      expect(zipEntries(whole)).toEqual(['docs/', 'docs/a/', 'docs/a/b/', 'docs/a/b/c/', 'docs/a/b/c/d/', 'docs/a/b/c/d/deep.txt', 'docs/guide.txt', 'notes.md', 'photo.png', 'readme.txt']);
      expect(execFileSync('unzip', ['-p', whole, 'docs/guide.txt'], { encoding: 'utf8' })).toBe('the guide');
    } finally {
      await v.close();
    }
  });

  it('selects with click, Ctrl-click and Shift-click, clears on Esc, and copies the link of one file', async () => {
    const v = await visitor();
    try {
      const { page, context } = v;
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await unlock(page, links.project);
      const selected = () => listbox(page).evaluate((box) => [...box.querySelectorAll('[aria-selected="true"] .entry-name')].map((o) => o.textContent));
      await option(page, 'docs').click();
      await option(page, 'photo.png').click({ modifiers: ['Shift'] });
      expect(await selected()).toEqual(['docs', 'notes.md', 'photo.png']);
      await option(page, 'notes.md').click({ modifiers: ['Control'] });
      expect(await selected()).toEqual(['docs', 'photo.png']);
      await page.keyboard.press('Escape');
      expect(await selected()).toEqual([]);
      // The multiple mode: plain clicks toggle.
      await button(page, 'Select multiple').click();
      expect(await button(page, 'Select multiple').getAttribute('aria-pressed')).toBe('true');
      await option(page, 'notes.md').click();
      await option(page, 'readme.txt').click();
      expect(await selected()).toEqual(['notes.md', 'readme.txt']);
      await option(page, 'notes.md').click();
      expect(await selected()).toEqual(['readme.txt']);
      await button(page, 'Select multiple').click();
      await page.keyboard.press('Escape');

      await option(page, 'readme.txt').click();
      await button(page, 'Copy download link').click();
      await page.getByRole('status').filter({ hasText: 'Link copied!' }).waitFor();
      const link = await page.evaluate(() => navigator.clipboard.readText());
      const answer = await fetch(link);
      expect({ status: answer.status, body: await answer.text() }).toEqual({ status: 200, body: 'read me first' });
    } finally {
      await v.close();
    }
  });

  it('walks into subfolders with and without a trailing slash, the breadcrumbs keeping the last 3 folders', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      await unlock(page, links.project);
      await option(page, 'docs').dblclick();
      await option(page, 'guide.txt').waitFor();
      expect(page.url()).toBe(`${links.project}/docs/`);
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs', exact: true });
      for (const url of [`${links.project}/docs/a/b/c/d`, `${links.project}/docs/a/b/c/d/`]) {
        await unlock(page, url, 'deep.txt');
        expect(await crumbs.getByRole('link').allInnerTexts()).toEqual(['Home', 'b', 'c', 'd']);
        await crumbs.getByText('...', { exact: true }).waitFor();
      }
      await crumbs.getByRole('link', { name: 'b', exact: true }).click();
      await option(page, 'c').waitFor();
      expect(page.url()).toBe(`${links.project}/docs/a/b/`);
    } finally {
      await v.close();
    }
  });

  it('shows 100 items of 250, then "+ 150" shows 100 more and "+ 50" the rest', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      await page.goto(links.many);
      await option(page, 'item-000.txt').waitFor();
      const options = listbox(page).getByRole('option');
      expect(await options.count()).toBe(100);
      await button(page, '+ 150').click();
      await option(page, 'item-199.txt').waitFor();
      expect(await options.count()).toBe(200);
      await button(page, '+ 50').click();
      await option(page, 'item-249.txt').waitFor();
      expect(await options.count()).toBe(250);
      expect(await page.getByRole('button', { name: /^\+ \d+$/ }).count()).toBe(0);
    } finally {
      await v.close();
    }
  });

  it('says "It feels lonely here..." for an empty shared folder', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      await page.goto(links.empty);
      await page.getByText('It feels lonely here...', { exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Download folder', exact: true }).waitFor();
      expect(await listbox(page).count()).toBe(0);
    } finally {
      await v.close();
    }
  });

  it('shows a visitor no sidebar, only the header with "Login", on a desktop and on a phone', async () => {
    // Quick setup hides the login button (api.md §8): shown here, as an instance that offers it.
    const api = await apiAs(server);
    const settings = await api.json<Record<string, unknown>>('/api/settings');
    expect((await api.call('PUT', '/api/settings', { ...settings, hideLoginButton: false })).status).toBe(200);
    for (const width of [1280, 390]) {
      const v = await visitor({ width, height: width > 400 ? 800 : 844, locale: 'ar' });
      try {
        const { page } = v;
        await page.goto(links.many);
        await page.getByRole('option', { name: 'item-000.txt', exact: true }).waitFor();
        expect(await page.getByRole('navigation', { name: /^(Main|التنقل الرئيسي)$/ }).count()).toBe(0);
        expect(await page.locator('#sidebar, .menu-button').count()).toBe(0);
        const login = page.getByRole('banner').getByRole('link', { name: /^(Login|تسجيل الدخول)$/ });
        await login.waitFor();
        const main = await page.getByRole('main').boundingBox();
        expect(main?.width ?? 0).toBeGreaterThan(width - 40);
        await screenshot(page, `share-visitor-${width}-ar`);
        await login.click();
        await page.waitForURL(/\/login/);
      } finally {
        await v.close();
      }
    }
    expect((await api.call('PUT', '/api/settings', settings)).status).toBe(200);
  });

  it('shows a shared file with its size, Download, Open file and a QR code of the download link', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      await page.goto(links.report);
      await page.getByRole('heading', { name: 'Download file', exact: true }).waitFor();
      await page.getByText('report.txt', { exact: true }).waitFor();
      const open = page.getByRole('link', { name: 'Open file', exact: true });
      expect(await open.getAttribute('target')).toBe('_blank');
      const inline = await fetch(new URL((await open.getAttribute('href')) ?? '', server.url));
      expect({ status: inline.status, disposition: inline.headers.get('content-disposition'), body: await inline.text() })
        .toEqual({ status: 200, disposition: "inline; filename*=utf-8''report.txt", body: 'quarterly figures' });
      const file = await downloadBy(page, page.getByRole('link', { name: 'Download', exact: true }));
      expect(await readFile(await savedTo(server, file), 'utf8')).toBe('quarterly figures');
      const qr = page.getByRole('img', { name: 'QR code', exact: true });
      await qr.waitFor();
      expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
      expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      // No list, no breadcrumbs for a single shared file.
      expect(await listbox(page).count()).toBe(0);
    } finally {
      await v.close();
    }
  });

  it('keeps a signed-in visitor signed in when the share answers 401 for its password', async () => {
    const browser = await launchBrowser();
    try {
      const { page } = browser;
      page.setDefaultTimeout(20_000);
      await signIn(page, server);
      await page.goto(links.project);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not it');
      await page.keyboard.press('Enter');
      await page.getByText('Wrong credentials', { exact: true }).waitFor();
      await unlock(page, links.project);
      await page.goto(`${server.url}/files/`);
      await page.getByRole('option', { name: 'project', exact: true }).waitFor();
      expect(page.url()).toBe(`${server.url}/files/`);
    } finally {
      await browser.close();
    }
  });

  it('moves through the items with the arrow keys and opens one with Enter', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      await unlock(page, links.project);
      await option(page, 'docs').click();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe('/photo.png');
      await page.keyboard.press('Space');
      expect(await option(page, 'photo.png').getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await option(page, 'guide.txt').waitFor();
      expect(page.url()).toBe(`${links.project}/docs/`);
    } finally {
      await v.close();
    }
  });

  it('has no accessibility violations (axe-core, WCAG 2.1 AA) on the password card, a folder and a file', async () => {
    const v = await visitor();
    try {
      const { page } = v;
      const check = (): Promise<string[]> => axeViolations(page);
      await page.goto(links.project);
      await page.getByRole('textbox', { name: 'Password', exact: true }).waitFor();
      expect(await check()).toEqual([]);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
      await page.keyboard.press('Enter');
      await option(page, 'readme.txt').click();
      await page.getByRole('img', { name: 'QR code', exact: true }).waitFor();
      expect(await check()).toEqual([]);
      await page.goto(links.report);
      await page.getByRole('img', { name: 'QR code', exact: true }).waitFor();
      expect(await check()).toEqual([]);
    } finally {
      await v.close();
    }
  });

  it.each([
    { name: 'desktop-light', width: 1280, height: 800, dark: false, locale: 'en-US' },
    { name: 'desktop-dark', width: 1280, height: 800, dark: true, locale: 'en-US' },
    { name: 'phone-light', width: 390, height: 844, dark: false, locale: 'en-US' },
    { name: 'phone-dark', width: 390, height: 844, dark: true, locale: 'en-US' },
    { name: 'desktop-ar', width: 1280, height: 800, dark: false, locale: 'ar' },
    { name: 'phone-ar', width: 390, height: 844, dark: false, locale: 'ar' },
  ])('looks right at $name', async ({ name, ...options }) => {
    const v = await visitor(options);
    try {
      const { page } = v;
      // By path: the listbox's own name is translated.
      const item = (n: string): Locator => page.locator(`[role="option"][data-path="/${n}"]`);
      await page.goto(links.project);
      await page.locator('input[type="password"]').waitFor();
      await screenshot(page, `share-password-${name}`);
      await page.locator('input[type="password"]').fill(PASSWORD);
      await page.keyboard.press('Enter');
      await item('readme.txt').waitFor();
      await page.locator('img.share-qr').waitFor();
      await item('readme.txt').click();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(options.locale === 'ar' ? 'rtl' : 'ltr');
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      await screenshot(page, `share-folder-${name}`);
      await item('photo.png').dblclick();
      await page.locator('img.share-preview').waitFor();
      await page.waitForFunction(() => [...document.images].every((img) => img.complete));
      await screenshot(page, `share-image-${name}`);
    } finally {
      await v.close();
    }
  });
});
