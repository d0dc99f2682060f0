import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn } from './support/session';

async function withCommands(server: ServerHandle, commands: string[]): Promise<void> {
  const api = await apiAs(server);
  const body = { what: 'user', which: ['commands'], current_password: server.password, data: { id: 1, commands } };
  expect((await api.call('PUT', '/api/users/1', body)).status).toBe(200);
}

// The shell panel (product.md §2, ui.md): only with exec enabled and the execute permission.
describe('the shell panel with exec enabled', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    server = await startServer({ tree: { 'here.txt': 'x' }, args: ['--disableExec=false'] });
    await withCommands(server, ['echo', 'printf', 'false']);
    browser = await launchBrowser();
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  const command = () => browser.page.getByRole('region', { name: 'Shell' }).getByRole('textbox', { name: 'Command' });
  const log = () => browser.page.getByRole('region', { name: 'Shell' }).getByRole('log');

  it('runs a command and streams its output; the field is disabled meanwhile', async () => {
    await browser.page.getByRole('button', { name: 'Toggle shell' }).click();
    await command().fill('echo hello world');
    await command().press('Enter');
    await log().getByText('hello world', { exact: true }).waitFor();
    await browser.page.waitForFunction(() => !(document.querySelector('.shell-input') as HTMLInputElement).disabled);
  });

  it('strips colour codes from a coloured line', async () => {
    await command().fill("printf '\\033[31mred alert\\033[0m\\n'");
    await command().press('Enter');
    await log().getByText('red alert', { exact: true }).waitFor();
    const lines = (await log().innerText()).split('\n');
    // The command line itself shows the escapes as typed; the output line has none left.
    expect(lines.at(-1)).toBe('red alert');
    expect(await log().innerText()).not.toContain('\u001b');
    await screenshot(browser.page, 'shell-panel');
  });

  it('walks the history with the up and down keys', async () => {
    await command().press('ArrowUp');
    expect(await command().inputValue()).toBe("printf '\\033[31mred alert\\033[0m\\n'");
    await command().press('ArrowUp');
    expect(await command().inputValue()).toBe('echo hello world');
    await command().press('ArrowDown');
    await command().press('ArrowDown');
    expect(await command().inputValue()).toBe('');
  });

  it("empties the output with 'clear' and closes with 'exit'", async () => {
    await command().fill('clear');
    await command().press('Enter');
    expect(await log().innerText()).toBe('');
    await command().fill('exit');
    await command().press('Enter');
    await browser.page.getByRole('region', { name: 'Shell' }).waitFor({ state: 'detached' });
  });

  it('closes when the files screen is left', async () => {
    const { page } = browser;
    await page.getByRole('button', { name: 'Toggle shell' }).click();
    await command().waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL(/\/settings\/profile$/);
    expect(await page.getByRole('region', { name: 'Shell' }).count()).toBe(0);
  });
});

describe('the shell panel with exec disabled', () => {
  it('is not offered', async () => {
    const server = await startServer({ tree: { 'here.txt': 'x' } });
    const browser = await launchBrowser();
    try {
      await signIn(browser.page, server);
      await browser.page.getByRole('listbox', { name: 'Files and folders' }).waitFor();
      expect(await browser.page.getByRole('button', { name: 'Toggle shell' }).count()).toBe(0);
    } finally {
      await browser.close();
      await server.stop();
      await server.sandbox.remove();
    }
  });
});
