import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { dialog, dialogButton, until, updateAdmin } from './support/files';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { createUserByApi, errorNotices, strongPassword, successNotice } from './support/settings';

// product.md §2 (Files screen: text and textImmutable open in an editor), §2 Keyboard (Ctrl+S),
// §8 (a failed save shows an error toast); ui.md "Preview and editor".

const TEN_MB_LINES = 200_000;
/** About 10 MB of text: numbered lines of 50 characters. */
const big = Array.from({ length: TEN_MB_LINES }, (_, i) => `line ${String(i).padStart(6, '0')} ${'x'.repeat(37)}`).join('\n');

const TREE = {
  'notes/todo.md': '# Todo\n\n- buy milk\n',
  'notes/plain.txt': 'first\n',
  'notes/keys.txt': 'keys\n',
  'notes/leave.txt': 'leave me\n',
  'notes/back.txt': 'back\n',
  'notes/failing.txt': 'keep\n',
  'notes/untouched.txt': 'as it was\n',
  'code/app.js': 'const answer = 42;\nfunction greet(name) {\n  return `hello ${name}`;\n}\n',
  'big.txt': big,
};

function textbox(page: Page, name: string) {
  return page.getByRole('textbox', { name, exact: true });
}

function mainButton(page: Page, name: string) {
  return page.getByRole('main').getByRole('button', { name, exact: true });
}

/**
 * Opens /files<path> and waits for the editor's textbox and its text. A Markdown file opens
 * rendered (U1), so it is taken to the editor the way a person does: with "Edit".
 */
async function openEditor(page: Page, server: ServerHandle, file: { path: string; text: string }): Promise<void> {
  const { path, text } = file;
  await page.goto(`${server.url}/files${path}`);
  if (/\.(md|markdown)$/i.test(path)) await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const name = path.split('/').pop() ?? '';
  await textbox(page, name).filter({ hasText: text }).waitFor();
}

/** Puts the caret at the end of the document and types `text`, as a person would. */
async function typeAtEnd(page: Page, name: string, text: string): Promise<void> {
  await textbox(page, name).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

async function onDisk(server: ServerHandle, rel: string): Promise<string> {
  return readFile(join(server.sandbox.root, rel), 'utf8');
}

describe('the text editor', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    browser = await launchBrowser();
    browser.page.setDefaultTimeout(20_000);
    api = await apiAs(server);
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('edits a file and saves it with the Save button; the API and the disk have the new text', async () => {
    const { page } = browser;
    await openEditor(page, server, { path: '/notes/todo.md', text: 'buy milk' });
    // The route writes the title once the screen has named the file, an effect after the text shows.
    await expect.poll(() => page.title()).toBe('todo.md - Files - filemgr');
    await typeAtEnd(page, 'todo.md', '- write tests');
    await mainButton(page, 'Save').click();
    await successNotice(page, 'File saved!').waitFor();
    const expected = '# Todo\n\n- buy milk\n- write tests';
    const raw = await api.call('GET', '/api/raw/notes/todo.md');
    expect(raw).toEqual({ status: 200, text: expected });
    expect(await onDisk(server, 'notes/todo.md')).toBe(expected);
    await mainButton(page, 'Info').click();
    await dialog(page, 'File information').waitFor();
    await dialogButton(page, 'File information', 'OK').click();
    await dialog(page, 'File information').waitFor({ state: 'detached' });
    // Saved: leaving asks nothing.
    await mainButton(page, 'Close').click();
    await page.waitForURL(/\/files\/notes\/$/);
  });

  it('keeps Save disabled while nothing changed, and again once the change is saved', async () => {
    const { page } = browser;
    await openEditor(page, server, { path: '/notes/untouched.txt', text: 'as it was' });
    expect(await mainButton(page, 'Save').isDisabled()).toBe(true);
    await typeAtEnd(page, 'untouched.txt', ' and more');
    expect(await mainButton(page, 'Save').isDisabled()).toBe(false);
    await mainButton(page, 'Save').click();
    await successNotice(page, 'File saved!').waitFor();
    await until(() => mainButton(page, 'Save').isDisabled(), 'Save to be disabled after saving');
    expect(await onDisk(server, 'notes/untouched.txt')).toBe('as it was\n and more');
  });

  it('saves with Ctrl+S, from inside the text and from elsewhere on the page', async () => {
    const { page } = browser;
    await openEditor(page, server, { path: '/notes/keys.txt', text: 'keys' });
    await typeAtEnd(page, 'keys.txt', 'one');
    await page.keyboard.press('Control+s');
    await until(async () => (await onDisk(server, 'notes/keys.txt')) === 'keys\none', 'the first Ctrl+S to reach the disk');
    await typeAtEnd(page, 'keys.txt', ' two');
    await page.getByRole('heading', { name: /keys\.txt/ }).click();
    await page.keyboard.press('Control+s');
    await until(async () => (await onDisk(server, 'notes/keys.txt')) === 'keys\none two', 'the second Ctrl+S to reach the disk');
    // Ctrl+S saved rather than opening the download dialog of the files screen.
    expect(await dialog(page, 'Download').count()).toBe(0);
  });

  it('asks before leaving with unsaved changes: Cancel stays, Discard leaves without saving', async () => {
    const { page } = browser;
    await openEditor(page, server, { path: '/notes/leave.txt', text: 'leave me' });
    await typeAtEnd(page, 'leave.txt', ' alone');
    await mainButton(page, 'Close').click();
    await dialog(page, 'Discard changes?').waitFor();
    await screenshot(page, 'editor-discard-desktop-light');
    await dialogButton(page, 'Discard changes?', 'Cancel').click();
    await dialog(page, 'Discard changes?').waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/files\/notes\/leave\.txt$/);
    await textbox(page, 'leave.txt').filter({ hasText: 'leave me alone' }).waitFor();

    // A breadcrumb is a link inside the app: it asks too.
    await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'notes' }).click();
    await dialogButton(page, 'Discard changes?', 'Discard').click();
    await page.waitForURL(/\/files\/notes\/$/);
    await page.getByRole('option', { name: 'leave.txt', exact: true }).waitFor();
    expect(await onDisk(server, 'notes/leave.txt')).toBe('leave me\n');
  });

  it('asks on the browser\'s back, keeps the editor on Cancel and goes back on Discard', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/notes/`);
    await page.getByRole('option', { name: 'back.txt', exact: true }).dblclick();
    await textbox(page, 'back.txt').filter({ hasText: 'back' }).waitFor();
    await typeAtEnd(page, 'back.txt', 'forth');
    // The browser's back, as its button does it (a same-document traverse of the session history).
    await page.evaluate(() => history.back());
    await dialog(page, 'Discard changes?').waitFor();
    await dialogButton(page, 'Discard changes?', 'Cancel').click();
    expect(page.url()).toMatch(/\/files\/notes\/back\.txt$/);
    await textbox(page, 'back.txt').filter({ hasText: 'backforth' }).waitFor();

    await page.evaluate(() => history.back());
    await dialogButton(page, 'Discard changes?', 'Discard').click();
    await page.waitForURL(/\/files\/notes\/$/);
    await page.getByRole('option', { name: 'back.txt', exact: true }).waitFor();
    expect(await onDisk(server, 'notes/back.txt')).toBe('back\n');
  });

  it('asks when the app itself moves elsewhere (a button rather than a link)', async () => {
    const { page } = browser;
    await openEditor(page, server, { path: '/notes/plain.txt', text: 'first' });
    await typeAtEnd(page, 'plain.txt', 'moved');
    // What the router does for a button such as a search result: pushState to the new path.
    await page.evaluate(() => history.pushState(null, '', '/files/notes/'));
    await dialog(page, 'Discard changes?').waitFor();
    expect(page.url()).toMatch(/\/files\/notes\/plain\.txt$/);
    await dialogButton(page, 'Discard changes?', 'Discard').click();
    await page.waitForURL(/\/files\/notes\/$/);
    await page.getByRole('option', { name: 'plain.txt', exact: true }).waitFor();
    expect(await onDisk(server, 'notes/plain.txt')).toBe('first\n');
  });

  it('warns before the tab is reloaded with unsaved changes', async () => {
    const { page } = browser;
    await openEditor(page, server, { path: '/notes/plain.txt', text: 'first' });
    await typeAtEnd(page, 'plain.txt', 'second');
    const asked = page.waitForEvent('dialog');
    void page.reload().catch(() => undefined);
    const warning = await asked;
    expect(warning.type()).toBe('beforeunload');
    await warning.dismiss();
    await textbox(page, 'plain.txt').filter({ hasText: 'firstsecond' }).waitFor();
    await mainButton(page, 'Save').click();
    await successNotice(page, 'File saved!').waitFor();
  });

  it('keeps the text and shows an error when the save is refused', async () => {
    const password = strongPassword('carol');
    const id = await createUserByApi(api, server.password, { username: 'carol', password, scope: '/' });
    const fresh = await launchBrowser();
    try {
      const { page } = fresh;
      page.setDefaultTimeout(20_000);
      await signIn(page, server, { username: 'carol', password });
      await openEditor(page, server, { path: '/notes/failing.txt', text: 'keep' });
      await typeAtEnd(page, 'failing.txt', 'typed before the permission went');
      const user = await api.json<Record<string, unknown> & { perm: Record<string, boolean> }>(`/api/users/${id}`);
      const revoked = await api.call('PUT', `/api/users/${id}`, { what: 'user', which: ['perm'], current_password: server.password, data: { ...user, perm: { ...user.perm, modify: false } } });
      expect(revoked.status).toBe(200);
      await mainButton(page, 'Save').click();
      await errorNotices(page).filter({ hasText: "You don't have permissions to access this." }).waitFor();
      await textbox(page, 'failing.txt').filter({ hasText: 'keeptyped before the permission went' }).waitFor();
      expect(await onDisk(server, 'notes/failing.txt')).toBe('keep\n');
    } finally {
      await fresh.close();
    }
  });

  it('is read-only for a user without the modify permission (the server says textImmutable)', async () => {
    const password = strongPassword('dave');
    const defaults = { create: true, delete: false, download: true, modify: false, execute: false, rename: false, share: false, admin: false };
    await createUserByApi(api, server.password, { username: 'dave', password, scope: '/', perm: defaults });
    const fresh = await launchBrowser();
    try {
      const { page } = fresh;
      page.setDefaultTimeout(20_000);
      await signIn(page, server, { username: 'dave', password });
      await openEditor(page, server, { path: '/notes/todo.md', text: 'buy milk' });
      const box = textbox(page, 'todo.md');
      expect(await box.getAttribute('aria-readonly')).toBe('true');
      expect(await mainButton(page, 'Save').isDisabled()).toBe(true);
      await box.click();
      await page.keyboard.type('nope');
      expect(await box.innerText()).not.toContain('nope');
      await page.getByText('Read-only', { exact: true }).waitFor();
      // Nothing changed: leaving asks nothing.
      await mainButton(page, 'Close').click();
      await page.waitForURL(/\/files\/notes\/$/);
    } finally {
      await fresh.close();
    }
  });

  it('opens a 10 MB file and edits it', async () => {
    const { page } = browser;
    await openEditor(page, server, { path: '/big.txt', text: 'line 000000' });
    const box = textbox(page, 'big.txt');
    await box.click();
    await page.keyboard.press('Control+End');
    await box.filter({ hasText: `line ${String(TEN_MB_LINES - 1).padStart(6, '0')}` }).waitFor();
    await page.keyboard.type('!END');
    await page.keyboard.press('Control+s');
    await until(async () => (await onDisk(server, 'big.txt')).endsWith('x!END'), 'the 10 MB save to reach the disk', 30_000);
    expect((await onDisk(server, 'big.txt')).length).toBe(big.length + 4);
  });

  it('highlights code by its extension and looks right in every layout', async () => {
    const { page } = browser;
    const variants = [
      { name: 'desktop-light', width: 1280, height: 800, theme: '', locale: 'en' },
      { name: 'desktop-dark', width: 1280, height: 800, theme: 'dark', locale: 'en' },
      { name: 'phone-light', width: 390, height: 844, theme: '', locale: 'en' },
      { name: 'phone-dark', width: 390, height: 844, theme: 'dark', locale: 'en' },
      { name: 'desktop-ar', width: 1280, height: 800, theme: '', locale: 'ar' },
      { name: 'phone-ar', width: 390, height: 844, theme: '', locale: 'ar' },
    ];
    for (const v of variants) {
      await updateAdmin(api, { locale: v.locale });
      await page.setViewportSize({ width: v.width, height: v.height });
      await page.goto(`${server.url}/files/`);
      await page.evaluate((theme) => localStorage.setItem('filemgr.theme', theme), v.theme);
      await page.goto(`${server.url}/files/code/app.js`);
      // The JavaScript pack loaded: the keyword carries a highlighting class.
      await page.locator('.cm-content span', { hasText: 'function' }).first().waitFor();
      await until(async () => (await page.locator('.cm-line span[class]').count()) > 2, 'syntax highlighting');
      const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      await screenshot(page, `editor-${v.name}`);
    }
    await updateAdmin(api, { locale: 'en' });
    await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('has no accessibility violations (axe-core, WCAG 2.1 AA) in the editor and its discard question', async () => {
    const profile = await mkdtemp(join(tmpdir(), 'filemgr-axe-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      page.setDefaultTimeout(20_000);
      await signIn(page, server);
      await openEditor(page, server, { path: '/code/app.js', text: 'answer' });
      expect(await axeViolations(page)).toEqual([]);
      await typeAtEnd(page, 'app.js', '// more');
      await mainButton(page, 'Close').click();
      await dialog(page, 'Discard changes?').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await dialogButton(page, 'Discard changes?', 'Cancel').click();
      await mainButton(page, 'Save').click();
      await successNotice(page, 'File saved!').waitFor({ state: 'detached' });
      // The dark theme's colours too.
      await page.evaluate(() => localStorage.setItem('filemgr.theme', 'dark'));
      await openEditor(page, server, { path: '/code/app.js', text: 'answer' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  it('ran without a script error', () => {
    // The refused save logs its 403 in the other browser; this one must have none.
    expect(problems.filter((p) => !p.includes('status of 403'))).toEqual([]);
  });
});
