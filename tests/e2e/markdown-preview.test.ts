import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { button, dialog, until } from './support/files';
import { shootLooks } from './support/looks';

const README = [
  '# Project notes',
  '',
  'Some **bold** text and a [safe link](https://example.com) and a [bad link](javascript:window.pwned=3).',
  '',
  '| Name | Size |',
  '|------|------|',
  '| a    | 1 KB |',
  '',
  '- [x] done',
  '- [ ] to do',
  '',
  '<script>window.pwned = 1</script>',
  '',
  '<img src="x" onerror="window.pwned = 2">',
  '',
].join('\n');

const TREE = {
  'md/readme.md': README,
  'md/plain.txt': 'plain text\n',
};

function article(page: Page) {
  return page.getByRole('article', { name: 'readme.md', exact: true });
}

describe('the Markdown preview', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];

  beforeAll(async () => {
    server = await startServer({ tree: TREE });
    api = await apiAs(server);
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('renders the file as a document, shows its HTML as text and never runs it', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/md/readme.md`);
    await article(page).getByRole('heading', { level: 1, name: 'Project notes', exact: true }).waitFor();
    expect(await article(page).getByRole('cell', { name: '1 KB', exact: true }).count()).toBe(1);
    expect(await article(page).getByRole('checkbox').count()).toBe(2);
    expect(await article(page).getByRole('link', { name: 'safe link', exact: true }).getAttribute('href')).toBe('https://example.com');
    const text = await article(page).innerText();
    expect(text).toContain('<script>window.pwned = 1</script>');
    expect(text).toContain('<img src="x" onerror="window.pwned = 2">');
    expect(await article(page).locator('script, img, [href^="javascript"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    // No editor until "Edit" is chosen.
    expect(await page.getByRole('textbox', { name: 'readme.md', exact: true }).count()).toBe(0);
  });

  it('labels "Edit" and "Rename" in words; Edit opens the editor and a save reaches the disk', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/md/readme.md`);
    await article(page).waitFor();
    const edit = button(page, 'Edit');
    const rename = button(page, 'Rename');
    expect((await edit.innerText()).trim()).toBe('Edit');
    expect((await rename.innerText()).trim()).toBe('Rename');
    await rename.click();
    await dialog(page, 'Rename').waitFor();
    await page.keyboard.press('Escape');
    await dialog(page, 'Rename').waitFor({ state: 'hidden' });

    await edit.click();
    await page.waitForURL(/\/files\/md\/readme\.md\?edit=1$/);
    const editor = page.getByRole('textbox', { name: 'readme.md', exact: true });
    await editor.filter({ hasText: 'Project notes' }).waitFor();
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Added line.');
    await page.getByRole('main').getByRole('button', { name: 'Save', exact: true }).click();
    const file = join(server.sandbox.root, 'md/readme.md');
    await until(() => readFileSync(file, 'utf8').endsWith('Added line.'), 'the saved text on disk');
    expect(readFileSync(file, 'utf8')).toBe(`${README}Added line.`);
  });

  it('still opens other text files straight in the editor', async () => {
    const { page } = browser;
    await page.goto(`${server.url}/files/md/plain.txt`);
    await page.getByRole('textbox', { name: 'plain.txt', exact: true }).filter({ hasText: 'plain text' }).waitFor();
    expect(await button(page, 'Edit').count()).toBe(0);
  });

  it('looks right in Arabic, light and dark, desktop and phone', async () => {
    const { page } = browser;
    const shots = await shootLooks(page, api, { name: 'markdown-preview', locale: 'ar', show: async () => {
      await page.goto(`${server.url}/files/md/readme.md`);
      await page.locator('.markdown-body h1').waitFor();
    } });
    expect(shots).toHaveLength(4);
    expect(problems).toEqual([]);
  });
});
