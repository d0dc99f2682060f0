import { existsSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import type { ServerHandle } from './harness';
import type { ApiClient } from './session';

/** The fields of GET /api/users/N (api.md §3.2) the files-screen tests read. */
export interface UserView {
  id: number;
  viewMode: string;
  sorting: { by: string; asc: boolean };
  locale: string;
}

/** The listing (ui.md "Files screen"). */
export function listbox(page: Page): Locator {
  return page.getByRole('listbox', { name: 'Files and folders', exact: true });
}

/** One item of the listing, by its exact name. */
export function item(page: Page, name: string): Locator {
  return listbox(page).getByRole('option', { name, exact: true });
}

/** A button of the page by its exact name (a header action while no dialog is open). */
export function button(page: Page, name: string): Locator {
  return page.getByRole('button', { name, exact: true });
}

/**
 * Runs a header action by its exact name as a person would: its button on the bar or, where the
 * bar is too narrow for it (a phone), the item of the "More actions" menu.
 */
export async function runAction(page: Page, name: string): Promise<void> {
  const bar = page.getByRole('toolbar', { name: 'File actions', exact: true });
  const onBar = bar.getByRole('button', { name, exact: true });
  const more = bar.getByRole('button', { name: 'More actions', exact: true });
  await onBar.or(more).first().waitFor();
  if (await onBar.isVisible()) {
    await onBar.click();
    return;
  }
  await more.click();
  await page.getByRole('menu', { name: 'More actions', exact: true }).getByRole('menuitem', { name, exact: true }).click();
}

/** A dialog by its exact name (ui.md "Dialogs"). */
export function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name, exact: true });
}

/** A button inside a dialog: the header actions of the same name sit behind it. */
export function dialogButton(page: Page, dialogName: string, name: string): Locator {
  return dialog(page, dialogName).getByRole('button', { name, exact: true });
}

/** The "N selected" text of the selection banner. */
export function selectedText(page: Page, count: number): Locator {
  return page.getByText(`${count} selected`, { exact: true });
}

/**
 * Opens /files<folder> (a full load: the clipboard and the selection start empty) and waits for
 * `expect`, an item that must be listed there, or the empty-folder message when it is omitted.
 */
export async function openFolder(page: Page, server: ServerHandle, at: { folder: string; expect?: string }): Promise<void> {
  await page.goto(`${server.url}/files${at.folder}`);
  if (at.expect === undefined) await page.getByText('It feels lonely here...', { exact: true }).waitFor();
  else await waitForWholeFolder(page, at.expect);
}

/**
 * Waits for the item `name` and for the whole folder: a large folder shows its first items while
 * the rest arrives, in a listbox that is aria-busy (and inert) until then.
 */
export async function waitForWholeFolder(page: Page, name: string): Promise<void> {
  await item(page, name).waitFor();
  await page.locator('[role="listbox"]:not([aria-busy])').waitFor();
}

/** The data-path of every option of the listing, in document order. */
export function renderedPaths(page: Page): Promise<string[]> {
  return listbox(page).evaluate((box) => [...box.querySelectorAll('[role="option"]')].map((o) => o.getAttribute('data-path') ?? ''));
}

/** The names of the rendered options whose aria-selected is "true", in document order. */
export function selectedNames(page: Page): Promise<string[]> {
  return listbox(page).evaluate((box) =>
    [...box.querySelectorAll('[role="option"][aria-selected="true"]')].map((o) => o.getAttribute('aria-label') ?? ''));
}

/** Polls `probe` (every 25 ms, for at most `timeoutMs`) until it answers true; fails naming `what`. */
export async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** GET /api/users/1, the admin. */
export function adminRecord(api: ApiClient): Promise<UserView> {
  return api.json<UserView>('/api/users/1');
}

/** PUT /api/users/1 with only the given fields (api.md §3.2 step 6); throws unless 200. */
export async function updateAdmin(api: ApiClient, data: Record<string, unknown>): Promise<void> {
  const { status, text } = await api.call('PUT', '/api/users/1', { what: 'user', which: Object.keys(data), data: { id: 1, ...data } });
  if (status !== 200) throw new Error(`PUT /api/users/1 answered ${status}: ${text}`);
}

/** Waits until `path` exists on disk (or, with `exists` false, no longer does). */
export async function untilOnDisk(path: string, exists = true): Promise<void> {
  await until(() => existsSync(path) === exists, `${path} to ${exists ? 'appear' : 'disappear'} on disk`);
}

/** Waits until a control is enabled (or, with `enabled` false, disabled). */
export async function untilEnabled(control: Locator, enabled = true): Promise<void> {
  await until(async () => (await control.isDisabled()) !== enabled, `${control.toString()} to be ${enabled ? 'enabled' : 'disabled'}`);
}
