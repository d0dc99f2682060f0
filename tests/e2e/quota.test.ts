import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from './support/files';
import { launchBrowser, screenshot, shutDown, startServer, type BrowserHandle, type ServerHandle } from './support/harness';
import { LOOKS, shootLooks } from './support/looks';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { createUserByApi, errorNotices, strongPassword, type StoredUser } from './support/settings';
import { uploadFiles } from './support/upload';

// Quotas (beyond.md §6): the user form's textbox "Quota", a refused upload, the sidebar's bar.

const MIB = 1024 * 1024;
const USER = { username: 'quinn', password: strongPassword('quinn') };
/** The textbox's and the toggle's names in the locales looked at. */
const NAMES = { en: { quota: 'Quota', toggle: 'Toggle sidebar' }, ar: { quota: 'الحصة', toggle: 'إظهار الشريط الجانبي أو إخفاؤه' } } as const;


/** Waits until the usage bar stays put (the phone's drawer slides in). */
async function settled(page: Page): Promise<void> {
  let last = '';
  await until(async () => {
    const box = JSON.stringify(await page.getByRole('progressbar').boundingBox());
    const still = box === last;
    last = box;
    return still;
  }, 'the sidebar to stop moving');
}

describe('quotas in the browser', () => {
  let server: ServerHandle;
  let admin: BrowserHandle;
  let user: BrowserHandle | undefined;
  let api: ApiClient;
  let id: number;
  let problems: string[];

  const quotaBox = (page: Page, locale: keyof typeof NAMES = 'en') => page.getByRole('textbox', { name: NAMES[locale].quota, exact: true });

  async function openUser(page: Page): Promise<void> {
    await page.goto(`${server.url}/settings/users/${id}`);
    await page.getByRole('button', { name: /^(Save|حفظ)$/ }).waitFor();
  }

  beforeAll(async () => {
    server = await startServer({ tree: { 'quinn/hello.txt': 'hello' } });
    api = await apiAs(server);
    id = await createUserByApi(api, server.password, { ...USER, scope: '/quinn' });
    admin = await launchBrowser();
    admin.page.setDefaultTimeout(10_000);
    problems = watchProblems(admin.page);
    await signIn(admin.page, server);
  });

  afterAll(async () => {
    await user?.close();
    await shutDown(admin, server);
  });

  it('an admin sets "Quota" to "1 MiB" in the user form; text it cannot read is marked and not saved', async () => {
    const { page } = admin;
    await openUser(page);
    await expect(quotaBox(page).inputValue()).resolves.toBe('');
    await quotaBox(page).fill('lots');
    await page.getByText('Write a size such as 500 MB or 10 GiB, or leave it empty for no quota.').waitFor();
    expect(await quotaBox(page).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await api.json<StoredUser & { quota: number }>(`/api/users/${id}`)).quota).toBe(0);
    await screenshot(page, 'quota-form-invalid');

    await quotaBox(page).fill('1 MiB');
    await page.getByRole('textbox', { name: 'Your password', exact: true }).fill(server.password);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await until(async () => (await api.json<{ quota: number }>(`/api/users/${id}`)).quota === MIB, 'the quota saved');
    // The form shows what is stored, in a human unit.
    await openUser(page);
    expect(await quotaBox(page).inputValue()).toBe('1 MiB');
    expect(problems).toEqual([]);
  });

  it('looks right in the user form: desktop and phone, light and dark, Arabic', async () => {
    const { page } = admin;
    for (const locale of ['en', 'ar'] as const) {
      await shootLooks(page, api, {
        name: 'quota-form',
        locale,
        show: async () => {
          await openUser(page);
          await quotaBox(page, locale).scrollIntoViewIfNeeded();
        },
      });
    }
  });

  it('refuses the user\'s upload of 2 MiB with a readable message; the sidebar reads "… of 1 MiB used"', async () => {
    user = await launchBrowser();
    const { page } = user;
    page.setDefaultTimeout(10_000);
    await signIn(page, server, USER);
    const usage = page.getByText(/ of 1\sMiB used$/);
    await usage.waitFor();
    const big = join(server.sandbox.dir, 'big.bin');
    writeFileSync(big, Buffer.alloc(2 * MIB, 7));
    await uploadFiles(page, [big]);
    const refused = errorNotices(page).filter({ hasText: /not enough space/i });
    await refused.first().waitFor();
    expect(existsSync(join(server.sandbox.root, 'quinn', 'big.bin'))).toBe(false);
    await screenshot(page, 'quota-upload-refused');
    expect(await usage.textContent()).toMatch(/^5\sB of 1\sMiB used$/);
  });

  it('looks right in the sidebar: desktop and phone, light and dark, Arabic', async () => {
    const page = user!.page;
    for (const locale of ['en', 'ar'] as const) {
      const { status } = await api.call('PUT', `/api/users/${id}`, { what: 'user', which: ['locale'], current_password: server.password, data: { id, locale } });
      expect(status).toBe(200);
      for (const look of LOOKS) {
        await page.setViewportSize({ width: look.width, height: look.height });
        await page.evaluate((theme) => localStorage.setItem('filemgr.theme', theme === 'dark' ? 'dark' : ''), look.theme);
        await page.goto(`${server.url}/files/`);
        await page.reload();
        if (look.size === 'phone') await page.getByRole('button', { name: NAMES[locale].toggle, exact: true }).click();
        await page.getByRole('progressbar').waitFor();
        await settled(page);
        await screenshot(page, `quota-sidebar-${look.size}-${look.theme}-${locale}`);
      }
    }
  });
});
