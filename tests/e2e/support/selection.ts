import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { button, selectedNames, selectedText } from './files';

/** Waits for the selection banner's "N selected", then checks exactly these names are selected. */
export async function expectSelected(page: Page, names: string[]): Promise<void> {
  await selectedText(page, names.length).waitFor();
  expect(await selectedNames(page)).toEqual(names);
}

/** Waits until no selection banner shows, then checks nothing is selected. */
export async function expectBannerGone(page: Page): Promise<void> {
  await page.getByText(/^\d+ selected$/).waitFor({ state: 'hidden' });
  expect(await selectedNames(page)).toEqual([]);
}

/** Whether each header action that depends on the selection is disabled. */
export async function disabledActions(page: Page): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const name of ['Share', 'Rename', 'Copy', 'Move', 'Delete']) out[name] = await button(page, name).isDisabled();
  return out;
}

/** disabledActions with nothing, one item and several items selected (product.md §2). */
export const ALL_OFF = { Share: true, Rename: true, Copy: true, Move: true, Delete: true };
export const ONE = { Share: false, Rename: false, Copy: false, Move: false, Delete: false };
export const SEVERAL = { Share: true, Rename: true, Copy: false, Move: false, Delete: false };
