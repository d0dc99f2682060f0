import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, startServer, type BrowserHandle, type ServerHandle, shutDown } from './support/harness';
import { apiAs, signIn, type ApiClient } from './support/session';
import { card, createUserByApi, errorNotices, readSettings, strongPassword, successNotice, type StoredUser } from './support/settings';

// The rules editor (product.md §3 "Rule", §5 "Rule path and regex text inputs ignore the Enter key",
// §6 "Per-user allow or deny rules"), on Global Settings and on a user's edit page.

const REGEX = '^/notes/.*\\.md$';

/** Counts the PUT /api/settings and PUT /api/users/* requests the page sends. */
function countSaves(page: Page): { count: () => number } {
  let saves = 0;
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'PUT' && (path === '/api/settings' || path.startsWith('/api/users/'))) saves += 1;
  });
  return { count: () => saves };
}

/**
 * Waits until the page has run everything its last key press set off: a request the page sends
 * afterwards has answered, so a save the key press had started would have been sent before it.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => (await fetch('/health')).text());
  await page.waitForLoadState('networkidle');
}

interface ItemNames {
  items: { name: string, exact: true }[];
}

describe('the rules editor', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let saves: { count: () => number };

  beforeAll(async () => {
    server = await startServer({ tree: { 'secret/plan.txt': 'plan', 'public/readme.txt': 'hi', 'notes/a.md': '# a' } });
    browser = await launchBrowser();
    // A local server answers at once: a missing control fails in seconds rather than half a minute.
    browser.page.setDefaultTimeout(10_000);
    api = await apiAs(server);
    saves = countSaves(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('adds, edits and removes global rules, ignores Enter in their text fields and saves them with Update', async () => {
    const { page } = browser;
    expect((await readSettings(api)).rules).toEqual([]);
    await page.goto(`${server.url}/settings/global`);
    const form = card(page, 'Global Settings');
    const rules = form.getByRole('group', { name: 'Rules', exact: true });
    await rules.getByRole('button', { name: 'Add rule', exact: true }).click();

    // A new row: Allow, not a regular expression, an empty path (product.md §3).
    const first = rules.getByRole('group', { name: 'Rule 1', exact: true });
    await first.waitFor();
    const access = first.getByRole('combobox', { name: 'Access', exact: true });
    expect(await access.inputValue()).toBe('allow');
    expect(await access.locator('option:checked').textContent()).toBe('Allow');
    expect(await first.getByRole('checkbox', { name: 'Regular expression', exact: true }).isChecked()).toBe(false);
    expect(await first.getByRole('textbox', { name: 'Path', exact: true }).inputValue()).toBe('');

    await access.selectOption({ label: 'Deny' });
    const path = first.getByRole('textbox', { name: 'Path', exact: true });
    await path.fill('/private');
    const savesBefore = saves.count();
    await path.press('Enter');
    await settle(page);
    expect(saves.count()).toBe(savesBefore);
    expect(await page.getByRole('status').filter({ hasText: 'Settings updated!' }).count()).toBe(0);
    expect(await errorNotices(page).count()).toBe(0);
    expect((await readSettings(api)).rules).toEqual([]);

    // A second row to remove later, then a regular expression row.
    await rules.getByRole('button', { name: 'Add rule', exact: true }).click();
    await rules.getByRole('group', { name: 'Rule 2', exact: true }).getByRole('textbox', { name: 'Path', exact: true }).fill('/gone');
    await rules.getByRole('button', { name: 'Add rule', exact: true }).click();
    const third = rules.getByRole('group', { name: 'Rule 3', exact: true });
    await third.getByRole('checkbox', { name: 'Regular expression', exact: true }).check();
    expect(await third.getByRole('textbox', { name: 'Path', exact: true }).count()).toBe(0);
    const expression = third.getByRole('textbox', { name: 'Expression', exact: true });
    await expression.fill(REGEX);
    await expression.press('Enter');
    await settle(page);
    expect(saves.count()).toBe(savesBefore);
    expect((await readSettings(api)).rules).toEqual([]);

    // Removing the middle row leaves the other two, renumbered.
    await rules.getByRole('group', { name: 'Rule 2', exact: true }).getByRole('button', { name: 'Remove rule', exact: true }).click();
    await rules.getByRole('group', { name: 'Rule 3', exact: true }).waitFor({ state: 'detached' });
    const second = rules.getByRole('group', { name: 'Rule 2', exact: true });
    expect(await second.getByRole('checkbox', { name: 'Regular expression', exact: true }).isChecked()).toBe(true);
    expect(await second.getByRole('textbox', { name: 'Expression', exact: true }).inputValue()).toBe(REGEX);
    expect(await first.getByRole('textbox', { name: 'Path', exact: true }).inputValue()).toBe('/private');

    await form.getByRole('button', { name: 'Update', exact: true }).click();
    await successNotice(page, 'Settings updated!').waitFor();
    expect(saves.count()).toBe(savesBefore + 1);
    expect((await readSettings(api)).rules).toMatchObject([
      { allow: false, path: '/private', regex: false },
      { allow: true, regex: true, regexp: { raw: REGEX } },
    ]);

    await page.reload();
    const shown = card(page, 'Global Settings').getByRole('group', { name: 'Rules', exact: true });
    await shown.getByRole('group', { name: 'Rule 2', exact: true }).waitFor();
    expect(await shown.getByRole('group', { name: /^Rule \d+$/ }).count()).toBe(2);
    expect(await shown.getByRole('group', { name: 'Rule 1', exact: true }).getByRole('combobox', { name: 'Access', exact: true }).inputValue()).toBe('deny');
    expect(await shown.getByRole('group', { name: 'Rule 1', exact: true }).getByRole('textbox', { name: 'Path', exact: true }).inputValue()).toBe('/private');
    expect(await shown.getByRole('group', { name: 'Rule 2', exact: true }).getByRole('textbox', { name: 'Expression', exact: true }).inputValue()).toBe(REGEX);
    await screenshot(page, 'rules-global');
  });

  it("saves a user's own rules from the edit page, and a deny rule hides the folder from that user", async () => {
    const { page } = browser;
    const password = strongPassword('rita');
    const id = await createUserByApi(api, server.password, { username: 'rita', password, scope: '/' });
    const rita = await apiAs(server, 'rita', password);
    const names = async (client: ApiClient): Promise<string[]> => (await client.json<ItemNames>('/api/resources/')).items.map((i) => i.name).sort();
    expect(await names(rita)).toEqual(['notes', 'public', 'secret']);

    await page.goto(`${server.url}/settings/users/${id}`);
    const rules = page.getByRole('group', { name: 'Rules', exact: true });
    await rules.getByRole('button', { name: 'Add rule', exact: true }).click();
    const row = rules.getByRole('group', { name: 'Rule 1', exact: true });
    await row.getByRole('combobox', { name: 'Access', exact: true }).selectOption({ label: 'Deny' });
    const path = row.getByRole('textbox', { name: 'Path', exact: true });
    await path.fill('/secret');
    const savesBefore = saves.count();
    await path.press('Enter');
    await settle(page);
    expect(saves.count()).toBe(savesBefore);
    expect((await api.json<StoredUser>(`/api/users/${id}`)).rules).toEqual([]);

    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await successNotice(page, 'User updated!').waitFor();
    expect((await api.json<StoredUser>(`/api/users/${id}`)).rules).toMatchObject([{ allow: false, path: '/secret', regex: false }]);

    // The rule applies to rita only (product.md §6): hidden from her listing and refused directly.
    const again = await apiAs(server, 'rita', password);
    expect(await names(again)).toEqual(['notes', 'public']);
    expect((await again.call('GET', '/api/resources/secret/plan.txt')).status).toBe(403);
    expect(await names(api)).toEqual(['notes', 'public', 'secret']);
  });
});
