import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn } from './support/session';

const LONG_LATIN = 'Quarterly-report-of-the-regional-office-2026-final-version-approved.pdf';
const LONG_ARABIC = 'تقرير الربع الأخير من السنة المالية الحالية للمكتب الإقليمي النهائي.pdf';

// product.md §9: the mobile layout applies at 736 px and below; nothing may make the page wider
// than the phone, in either reading direction, in any view.
describe('the files screen at phone width', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer({ tree: { 'a rather long file name for a phone screen.txt': 'x', Documents: null, 'notes.md': 'y', [LONG_LATIN]: 'z', [LONG_ARABIC]: 'w' } });
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

  it.each(['en', 'ar'])('cuts a long name at its end, never its start, in either script (%s)', async (locale) => {
    const api = await apiAs(server);
    const body = { what: 'user', which: ['locale', 'viewMode'], data: { id: 1, locale, viewMode: 'list' } };
    expect((await api.call('PUT', '/api/users/1', body)).status).toBe(200);
    const { page } = browser;
    await page.reload();
    for (const name of [LONG_LATIN, LONG_ARABIC]) {
      const cell = page.getByRole('option', { name }).locator('.entry-name');
      const measure = () => cell.evaluate((el) => {
        const text = el.firstChild!;
        const first = document.createRange();
        first.setStart(text, 0);
        first.setEnd(text, 1);
        const r = first.getBoundingClientRect();
        const c = el.getBoundingClientRect();
        return { overflows: el.hasAttribute('data-overflows'), firstInside: r.left >= c.left - 1 && r.right <= c.right + 1 };
      });
      // The cell is marked once laid out (overflow.ts).
      await expect.poll(measure).toEqual({ overflows: true, firstInside: true });
    }
  });
});
