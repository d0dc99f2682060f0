import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn } from './support/session';

// product.md §9: the mobile layout applies at 736 px and below; nothing may make the page wider
// than the phone, in either reading direction, in any view.
describe('the files screen at phone width', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer({ tree: { 'a rather long file name for a phone screen.txt': 'x', Documents: null, 'notes.md': 'y' } });
    browser = await launchBrowser();
    await browser.page.setViewportSize({ width: 390, height: 844 });
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it.each([
    ['en', 'list', 'ltr'],
    ['en', 'mosaic', 'ltr'],
    ['ar', 'list', 'rtl'],
    ['ar', 'mosaic gallery', 'rtl'],
  ])('has no horizontal overflow in %s, %s view', async (locale, viewMode, dir) => {
    const api = await apiAs(server);
    const body = { what: 'user', which: ['locale', 'viewMode'], data: { id: 1, locale, viewMode } };
    expect((await api.call('PUT', '/api/users/1', body)).status).toBe(200);
    const { page } = browser;
    await page.reload();
    await page.getByRole('option', { name: 'notes.md' }).click();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe(dir);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
  });
});
