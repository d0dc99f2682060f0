import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FileChooser, Locator, Page, Request, Route } from 'playwright-core';
import { button, dialogButton } from './files';

/** A file for a picker or a drop: a name and its bytes. */
export interface PickedFile {
  name: string;
  content: string | Buffer;
}

/** The uploads region (ui.md "Search, shell, upload progress"). */
export function uploads(page: Page): Locator {
  return page.getByRole('region', { name: 'Uploads', exact: true });
}

/** A file's row in the uploads region, by its name. */
export function uploadRow(page: Page, name: string): Locator {
  return uploads(page).getByRole('listitem').filter({ has: page.getByRole('progressbar', { name, exact: true }) });
}

/** The SHA-256 of a file on disk, in hex. */
export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Clicks Upload, then File or Folder in the Upload dialog; resolves with the picker that opens. */
export async function openPicker(page: Page, kind: 'File' | 'Folder'): Promise<FileChooser> {
  await button(page, 'Upload').click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), dialogButton(page, 'Upload', kind).click()]);
  return chooser;
}

/** Picks files in the File picker of the Upload dialog (bytes, or paths of files on disk). */
export async function uploadFiles(page: Page, files: readonly PickedFile[] | string[]): Promise<void> {
  const chooser = await openPicker(page, 'File');
  const picked = files.map((f) => (typeof f === 'string' ? f : { name: f.name, mimeType: 'application/octet-stream', buffer: Buffer.from(f.content) }));
  await chooser.setFiles(picked as Parameters<FileChooser['setFiles']>[0]);
}

/**
 * Records every success notice's text from the page's start (they last a second, too short to
 * count by polling): read them with `successTexts`.
 */
export async function recordNotices(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { successNotices: string[] }).successNotices = seen;
    new MutationObserver((records) => {
      for (const r of records) {
        for (const node of r.addedNodes) {
          if (node instanceof HTMLElement && node.matches('[role="status"].toast')) seen.push(node.textContent ?? '');
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The success notices shown since the page loaded. */
export function successTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { successNotices?: string[] }).successNotices ?? []);
}

/** Dispatches dragenter and dragover of `files` (a DataTransfer built in the page) on `target`. */
export async function dragFilesOver(page: Page, target: Locator, files: readonly PickedFile[]): Promise<() => Promise<void>> {
  const data = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.content], f.name));
    return dt;
  }, files.map((f) => ({ name: f.name, content: f.content.toString() })));
  await target.dispatchEvent('dragenter', { dataTransfer: data });
  await target.dispatchEvent('dragover', { dataTransfer: data });
  return async () => target.dispatchEvent('drop', { dataTransfer: data });
}

/** A tus request held by the page's route until `release` (or `abort`). */
export interface Held {
  request: Request;
  release: () => Promise<void>;
  abort: () => Promise<void>;
}

/**
 * Holds the tus requests `match` picks (the others pass); each held one is pushed to the returned
 * list. Chunks that never reach the server make "before it ends" and "mid-way" exact.
 */
export async function holdTus(page: Page, match: (request: Request) => boolean): Promise<{ held: Held[]; stop: () => Promise<void> }> {
  const held: Held[] = [];
  const handler = async (route: Route): Promise<void> => {
    const request = route.request();
    if (!match(request)) return route.continue();
    const settle = (how: () => Promise<void>) => async () => how().catch(() => undefined);
    held.push({ request, release: settle(() => route.continue()), abort: settle(() => route.abort('connectionreset')) });
  };
  await page.route(/\/api\/tus\//, handler);
  return { held, stop: () => page.unroute(/\/api\/tus\//, handler) };
}

/** The Upload-Offset of a tus PATCH, or -1 for another request. */
export function patchOffset(request: Request): number {
  if (request.method() !== 'PATCH') return -1;
  return Number(request.headers()['upload-offset'] ?? -1);
}
