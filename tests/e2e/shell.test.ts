import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';

describe('the app shell in Chromium', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  const problems: string[] = [];

  beforeAll(async () => {
    server = await startServer({ tree: { 'docs/readme.txt': 'hello', 'photo.txt': 'x' } });
    browser = await launchBrowser();
    browser.page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    browser.page.on('pageerror', (err) => problems.push(err.message));
  });

  afterAll(() => shutDown(browser, server));

  it('redirects a signed-out visitor to /login', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/`);
    await page.waitForURL(/\/login(\?.*)?$/);
    await expect(page.title()).resolves.toContain('filemgr');
  });

  it('signs the admin in with the labelled form and lands on /files/', async () => {
    const { page } = browser;
    expect(server.password).not.toBe('');
    await page.getByLabel('Username').fill(server.username);
    await page.getByLabel('Password').fill(server.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(/\/files\/$/);
    await page.waitForLoadState('networkidle');
    const path = await screenshot(page, 'shell-files');
    expect(existsSync(path)).toBe(true);
  });

  it('loads without a script error or a Content-Security-Policy violation', () => {
    expect(problems).toEqual([]);
  });
});
