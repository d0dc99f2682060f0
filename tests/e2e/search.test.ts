import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { signIn, watchProblems } from './support/session';

// The search overlay (product.md §2, ui.md 'Search, shell'): Ctrl+F or the Search button, Enter
// searches below the folder on screen, type filters narrow it, a hit opens, Esc closes.
describe('the search overlay', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];
  // A real 1x1 PNG: the listing asks for its thumbnail, which a fake image would fail (415).
  const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const tree: Record<string, string | Buffer> = {
    'docs/report.pdf': '%PDF-1.4',
    'docs/holiday report.jpg': pixel,
    'a/b/report-2.txt': 'text',
    'notes.txt': 'nothing',
  };
  for (let i = 0; i < 120; i++) tree[`many/report-${String(i).padStart(3, '0')}.txt`] = '';

  beforeAll(async () => {
    server = await startServer({ tree });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  const results = () => browser.page.getByRole('list', { name: 'Search results' });
  const box = () => browser.page.getByRole('searchbox', { name: 'Search' });

  it('opens with Ctrl+F and lists what matches below the folder, as links named by their path', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/docs/`);
    await page.getByRole('listbox', { name: 'Files and folders' }).waitFor();
    await page.keyboard.press('Control+f');
    await box().fill('report');
    await box().press('Enter');
    await results().getByRole('link', { name: 'report.pdf' }).waitFor();
    await results().getByRole('link', { name: 'holiday report.jpg' }).waitFor();
    expect(await results().getByRole('link').count()).toBe(2);
    await screenshot(page, 'search-overlay');
  });

  it('clears the results as soon as the text changes', async () => {
    await box().fill('repo');
    expect(await results().getByRole('link').count()).toBe(0);
  });

  it('narrows to images with the Images button', async () => {
    const { page } = browser;
    await box().fill('report');
    await page.getByRole('button', { name: 'Images' }).click();
    await results().getByRole('link', { name: 'holiday report.jpg' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('.search-list a[href$="report.pdf"]'));
    expect(await results().getByRole('link').allTextContents()).toEqual(['holiday report.jpg']);
    expect(await page.getByRole('button', { name: 'Images' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('opens a hit and closes the overlay', async () => {
    const { page } = browser;
    await results().getByRole('link', { name: 'holiday report.jpg' }).click();
    await page.waitForURL(/\/files\/docs\/holiday%20report\.jpg$/);
    expect(await box().count()).toBe(0);
  });

  it('shows 50 hits at first and more when scrolled near the end; Esc closes', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/many/`);
    await page.getByRole('listbox', { name: 'Files and folders' }).waitFor();
    await page.getByRole('button', { name: 'Search' }).click();
    await box().fill('report');
    await box().press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.search-list a').length === 50);
    await page.locator('.search-results').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await page.waitForFunction(() => document.querySelectorAll('.search-list a').length === 100);
    // A new query starts again at 50 (report-000 to report-099 are 100 hits).
    await box().fill('report-0');
    await box().press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.search-list a').length === 50);
    await page.waitForFunction(() => document.querySelector('.search-list')?.getAttribute('aria-busy') === 'false');
    expect(await results().getByRole('link').count()).toBe(50);
    await page.keyboard.press('Escape');
    await box().waitFor({ state: 'detached' });
  });

  it('ran without a script error', () => {
    expect(problems).toEqual([]);
  });
});
