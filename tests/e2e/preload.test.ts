import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { button, dialog, item } from './support/files';
import { signIn, watchProblems } from './support/session';

// U1: the lazy screens' chunks are fetched when the browser is idle after a load, and the screens
// then open from them and work as before (the search, a dialog, the editor, a settings tab).
describe('screens preloaded when the browser is idle', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let problems: string[];
  const chunks: string[] = [];

  beforeAll(async () => {
    server = await startServer({ tree: { 'notes.txt': 'first line\n', 'docs/report.txt': 'report' } });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('fetches the chunks of the search, the prompts, the editor and the settings pages before any is opened', async () => {
    const { page } = browser;
    page.on('request', (r) => {
      const name = /\/chunks\/([a-z-]+)-[A-Z0-9]+\.js$/.exec(r.url())?.[1];
      if (name) chunks.push(name);
    });
    await page.goto(`${server.url}/files/`);
    await item(page, 'notes.txt').waitFor();
    await page.waitForLoadState('networkidle');
    expect(chunks).toEqual(expect.arrayContaining(['search-overlay', 'prompt-host', 'editor-page', 'preview-page', 'profile-page', 'global-page', 'users-page']));
  });

  it('opens the search from its preloaded chunk, and it searches', async () => {
    const { page } = browser;
    await button(page, 'Search').click();
    const box = page.getByRole('searchbox', { name: 'Search' });
    await box.fill('report');
    await box.press('Enter');
    await page.getByRole('list', { name: 'Search results' }).getByRole('link', { name: 'report.txt' }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('opens a dialog from its preloaded chunk, and it acts', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'New folder', exact: true }).first().click();
    await dialog(page, 'New folder').getByRole('textbox').fill('made');
    await dialog(page, 'New folder').getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/files\/made\/$/);
  });

  it('opens the editor and a settings tab from their preloaded chunks', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/notes.txt`);
    await page.locator('.cm-editor').getByText('first line').waitFor();
    await page.goto(`${server.url}/settings/profile`);
    await page.waitForLoadState('networkidle');
    await page.locator('a.tab[href$="/settings/users"]').click();
    await page.getByRole('cell', { name: 'admin', exact: true }).waitFor();
    expect(problems).toEqual([]);
  });
});
