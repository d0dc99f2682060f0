import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, shutDown, startServer, type BrowserHandle, type ServerHandle } from './support/harness';
import { axeViolations } from './support/axe';
import { button, dialog, dialogButton, item, openFolder, until, untilOnDisk, updateAdmin } from './support/files';
import { jpeg, obj, pdf, png, rawTiff, recordMp4, silentMp3, srt, stl, tiff } from './support/media';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';

/** The preview's image, named by the file (ui.md 'Preview and editor'). */
function picture(page: Page, name: string): Locator {
  return page.getByRole('img', { name, exact: true });
}

/** Waits until the <img> has a decoded picture and answers its natural width. */
async function loadedWidth(image: Locator): Promise<number> {
  await until(() => image.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), 'the image to load');
  return image.evaluate((el: HTMLImageElement) => el.naturalWidth);
}

async function transformOf(image: Locator): Promise<string> {
  return image.evaluate((el: HTMLElement) => el.style.transform);
}

/** The translation of a `translate(Xpx, Ypx) scale(S)` transform. */
function translationOf(transform: string): { x: number; y: number } {
  const match = /translate\((-?[\d.e-]+)px, (-?[\d.e-]+)px\)/.exec(transform);
  return { x: Number(match?.[1]), y: Number(match?.[2]) };
}

async function untilTransform(image: Locator, wanted: RegExp): Promise<void> {
  await until(async () => wanted.test(await transformOf(image)), `the transform to match ${wanted}`);
}

describe('the preview page', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  const disk = (rel: string): string => join(server.sandbox.root, rel);

  /** Opens a file's preview by its URL and waits for the preview (in any language). */
  async function open(path: string): Promise<Page> {
    const { page } = browser;
    await page.goto(`${server.url}/files${path.split('/').map(encodeURIComponent).join('/')}`);
    await page.locator('.preview-bar').waitFor();
    return page;
  }

  beforeAll(async () => {
    server = await startServer({ tree: { gallery: null, del: null, ren: null } });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'list', sorting: { by: 'name', asc: false } });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
    const files: [string, Buffer | string][] = [
      ['gallery/a-photo.jpg', await jpeg(1600, 1000, 'a-photo.jpg')],
      ['gallery/b-drawing.png', await png(900, 1200, 'b-drawing.png')],
      ['gallery/c-scan.tif', await tiff(1400, 900, 'c-scan.tif')],
      ['gallery/d-raw.dng', await rawTiff(800, 600, 'd-raw.dng')],
      ['gallery/e-clip.mp4', await recordMp4(browser.page)],
      ['gallery/e-clip.srt', srt('Hello subtitles')],
      ['gallery/f-song.mp3', silentMp3()],
      ['gallery/g-paper.pdf', pdf('Hello PDF')],
      ['gallery/h-part.stl', stl()],
      ['gallery/i-cube.obj', obj()],
      ['gallery/j-data.bin', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256))],
      ['del/x1.jpg', await jpeg(400, 300, 'x1')],
      ['del/x2.jpg', await jpeg(400, 300, 'x2')],
      ['del/x3.jpg', await jpeg(400, 300, 'x3')],
      ['ren/r.jpg', await jpeg(400, 300, 'r')],
    ];
    for (const [rel, content] of files) await writeFile(disk(rel), content);
  });

  afterAll(() => shutDown(browser, server));

  it('opens a JPEG from the listing on its big preview, and the original with "Toggle image size"', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/gallery/', expect: 'a-photo.jpg' });
    await item(page, 'a-photo.jpg').dblclick();
    await page.waitForURL(/\/files\/gallery\/a-photo\.jpg$/);
    const image = picture(page, 'a-photo.jpg');
    expect(await loadedWidth(image)).toBe(1080);
    expect(await image.getAttribute('src')).toMatch(/\/api\/preview\/big\/gallery\/a-photo\.jpg\?inline=true/);
    await button(page, 'Toggle image size').click();
    await until(async () => (await image.getAttribute('src'))?.includes('/api/raw/gallery/a-photo.jpg?inline=true') ?? false, 'the original');
    expect(await loadedWidth(image)).toBe(1600);
    await button(page, 'Toggle image size').click();
    await until(async () => (await image.getAttribute('src'))?.includes('/api/preview/big/') ?? false, 'the big preview again');
    for (const name of ['Close', 'Rename', 'Delete', 'Download', 'Info', 'Next']) await button(page, name).waitFor();
    expect(await button(page, 'Previous').count()).toBe(0);
  });

  it('zooms by 0.25 per wheel notch, cycles 1, 2, 4 by double click and pans by dragging', async () => {
    const page = await open('/gallery/a-photo.jpg');
    const image = picture(page, 'a-photo.jpg');
    await loadedWidth(image);
    const box = (await image.boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.wheel(0, -100);
    await untilTransform(image, /scale\(1\.25\)/);
    await page.mouse.wheel(0, 100);
    await untilTransform(image, /scale\(1\)$/);
    await page.mouse.wheel(0, 100);
    await untilTransform(image, /scale\(0\.75\)/);
    await page.mouse.dblclick(centre.x, centre.y);
    await untilTransform(image, /scale\(1\)$/);
    await page.mouse.dblclick(centre.x, centre.y);
    await untilTransform(image, /scale\(2\)/);
    const before = translationOf(await transformOf(image));
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    await page.mouse.move(centre.x + 60, centre.y + 30, { steps: 4 });
    await page.mouse.up();
    await until(async () => {
      const after = translationOf(await transformOf(image));
      return Math.abs(after.x - before.x - 60) < 0.01 && Math.abs(after.y - before.y - 30) < 0.01;
    }, 'the drag to pan the image by (60, 30)');
    expect(await transformOf(image)).toMatch(/scale\(2\)$/);
    await page.mouse.dblclick(centre.x + 60, centre.y + 30);
    await untilTransform(image, /scale\(4\)/);
    await page.mouse.dblclick(centre.x, centre.y);
    await untilTransform(image, /^translate\(0px, 0px\) scale\(1\)$/);
  });

  it('zooms with two fingers and cycles with a double tap', async () => {
    const page = await open('/gallery/a-photo.jpg');
    const image = picture(page, 'a-photo.jpg');
    await loadedWidth(image);
    const box = (await image.boundingBox())!;
    const [x, y] = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
    // Real touch input through the DevTools protocol (Playwright's touchscreen has one finger only).
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: [number, number][]): Promise<unknown> =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([px, py], id) => ({ x: px, y: py, id })) });
    await touch('touchStart', [[x - 50, y], [x + 50, y]]);
    for (let spread = 60; spread <= 100; spread += 10) await touch('touchMove', [[x - spread, y], [x + spread, y]]);
    await touch('touchEnd', []);
    await untilTransform(image, /scale\(2\)$/);
    await touch('touchStart', [[x, y]]);
    await touch('touchEnd', []);
    await touch('touchStart', [[x, y]]);
    await touch('touchEnd', []);
    await untilTransform(image, /scale\(4\)$/);
    await cdp.detach();
  });

  it('steps through images, video, audio and other files with Right, Left and Enter, decoding TIFF and DNG, and closes with Esc', async () => {
    const page = await open('/gallery/a-photo.jpg');
    await loadedWidth(picture(page, 'a-photo.jpg'));
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/b-drawing\.png$/);
    expect(await loadedWidth(picture(page, 'b-drawing.png'))).toBe(810);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/c-scan\.tif$/);
    const scan = picture(page, 'c-scan.tif');
    expect(await loadedWidth(scan)).toBe(1080);
    expect(await scan.getAttribute('src')).toMatch(/^blob:/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/d-raw\.dng$/);
    expect(await loadedWidth(picture(page, 'd-raw.dng'))).toBe(800);
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL(/c-scan\.tif$/);
    await picture(page, 'c-scan.tif').waitFor();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/d-raw\.dng$/);
    // The PDF, the models and the subtitle are skipped: Previous and Next stop at image, video, audio and blob.
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/e-clip\.mp4$/);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/f-song\.mp3$/);
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/j-data\.bin$/);
    await page.getByText('There is no preview for this file.', { exact: true }).waitFor();
    expect(await button(page, 'Next').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/files\/gallery\/$/);
    await item(page, 'a-photo.jpg').waitFor();
  });

  it('mirrors the arrow keys right to left, where Next sits on the left', async () => {
    await updateAdmin(api, { locale: 'ar' });
    try {
      const page = await open('/gallery/a-photo.jpg');
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      await loadedWidth(picture(page, 'a-photo.jpg'));
      await page.keyboard.press('ArrowLeft');
      await page.waitForURL(/b-drawing\.png$/);
      await page.keyboard.press('ArrowRight');
      await page.waitForURL(/a-photo\.jpg$/);
    } finally {
      await updateAdmin(api, { locale: 'en' });
    }
  });

  it('shows Previous and Next, hides them while the mouse rests and brings them back when it moves', async () => {
    const page = await open('/gallery/b-drawing.png');
    const nav = page.locator('.preview-nav');
    await button(page, 'Previous').waitFor();
    await page.mouse.move(300, 300);
    await until(async () => (await nav.getAttribute('data-shown')) === 'false', 'the buttons to hide');
    await until(() => button(page, 'Next').evaluate((el) => getComputedStyle(el).opacity === '0'), 'the buttons to fade out');
    await page.mouse.move(320, 340);
    await until(async () => (await nav.getAttribute('data-shown')) === 'true', 'the buttons to come back');
    await button(page, 'Previous').click();
    await page.waitForURL(/a-photo\.jpg$/);
  });

  it('plays an MP4 with its subtitles, and the MP3 after it starts by itself', async () => {
    const page = await open('/gallery/e-clip.mp4');
    const video = page.locator('video');
    expect(await video.evaluate((el: HTMLVideoElement) => el.autoplay)).toBe(false);
    expect(await video.locator('track').getAttribute('src')).toMatch(/\/api\/subtitle\/gallery\/e-clip\.srt\?inline=true$/);
    await until(() => video.evaluate((el: HTMLVideoElement) => el.readyState >= 1 && el.videoWidth === 320), 'the video metadata');
    await until(() => video.evaluate((el: HTMLVideoElement) => (el.textTracks[0]?.cues?.length ?? 0) === 1), 'the subtitle cue');
    const cue = await video.evaluate((el: HTMLVideoElement) => (el.textTracks[0]?.cues?.[0] as VTTCue | undefined)?.text);
    expect(cue).toBe('Hello subtitles');
    await video.evaluate((el: HTMLVideoElement) => el.play());
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(/f-song\.mp3$/);
    const audio = page.locator('audio');
    expect(await audio.evaluate((el: HTMLAudioElement) => el.autoplay)).toBe(true);
    await until(() => audio.evaluate((el: HTMLAudioElement) => el.duration > 2), 'the MP3 to decode');
  });

  it('embeds a PDF in a frame of the inline file, which the server sandboxes', async () => {
    const page = await open('/gallery/g-paper.pdf');
    const frame = page.locator('iframe[title="g-paper.pdf"]');
    const src = (await frame.getAttribute('src'))!;
    expect(src).toMatch(/^\/api\/raw\/gallery\/g-paper\.pdf\?inline=true/);
    const answer = await fetch(`${server.url}${src}`, { headers: { 'X-Auth': api.token } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-security-policy')).toMatch(/sandbox/);
    // Chromium's PDF viewer still opens inside the sandboxed frame.
    await until(() => page.frames().some((f) => f.url().startsWith('chrome-extension://')), 'the PDF viewer');
  });

  it.each([['h-part.stl'], ['i-cube.obj']])('renders %s in 3D; dragging orbits and the wheel zooms', async (name) => {
    const page = await open(`/gallery/${name}`);
    const canvas = page.getByRole('img', { name: `3D model ${name}`, exact: true });
    await page.locator('.preview-model[data-state="ready"]').waitFor();
    const first = await canvas.screenshot();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 6 });
    await page.mouse.up();
    const orbited = await canvas.screenshot();
    expect(orbited.equals(first)).toBe(false);
    await page.mouse.wheel(0, -400);
    await until(async () => !(await canvas.screenshot()).equals(orbited), 'the model to zoom');
  });

  it('offers Download and Open file for a file without preview', async () => {
    const page = await open('/gallery/j-data.bin');
    const card = page.getByRole('region', { name: 'j-data.bin', exact: true });
    await card.getByText('There is no preview for this file.', { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('j-data.bin');
    const saved = join(server.sandbox.dir, 'j-data.bin');
    await download.saveAs(saved);
    expect(readFileSync(saved).equals(readFileSync(disk('gallery/j-data.bin')))).toBe(true);
    // A new tab asks for the inline file (a binary one then downloads there). The popup and its
    // navigation request are awaited as events: a popup's first request can come before its
    // frame exists, so the request cannot tell its page.
    const popup = page.waitForEvent('popup');
    const requested = browser.context.waitForEvent('request', (r) => r.url().includes('/api/raw/gallery/j-data.bin?inline=true'));
    await card.getByRole('button', { name: 'Open file', exact: true }).click();
    const [tab, request] = await Promise.all([popup, requested]);
    expect(tab).not.toBe(page);
    expect(request.isNavigationRequest()).toBe(true);
    await tab.close();
  });

  it('shows the file information from Info', async () => {
    const page = await open('/gallery/a-photo.jpg');
    await button(page, 'Info').click();
    const info = dialog(page, 'File information');
    await info.getByText('/gallery/a-photo.jpg', { exact: true }).waitFor();
    await dialogButton(page, 'File information', 'OK').click();
    await info.waitFor({ state: 'detached' });
  });

  it('deletes from the preview and lands on the next item, then the previous, then the folder', async () => {
    const page = await open('/del/x2.jpg');
    await button(page, 'Delete').click();
    await dialog(page, 'Delete').waitFor();
    await screenshot(page, 'preview-delete-dialog-desktop-light-en');
    await dialogButton(page, 'Delete', 'Delete').click();
    await untilOnDisk(disk('del/x2.jpg'), false);
    await page.waitForURL(/\/files\/del\/x3\.jpg$/);
    await loadedWidth(picture(page, 'x3.jpg'));
    await button(page, 'Delete').click();
    await dialogButton(page, 'Delete', 'Delete').click();
    await untilOnDisk(disk('del/x3.jpg'), false);
    await page.waitForURL(/\/files\/del\/x1\.jpg$/);
    await loadedWidth(picture(page, 'x1.jpg'));
    await button(page, 'Delete').click();
    await dialogButton(page, 'Delete', 'Delete').click();
    await untilOnDisk(disk('del/x1.jpg'), false);
    await page.waitForURL(/\/files\/del\/$/);
    await page.getByText('It feels lonely here...', { exact: true }).waitFor();
  });

  it('renames from the preview and opens the new path', async () => {
    const page = await open('/ren/r.jpg');
    await button(page, 'Rename').click();
    await dialog(page, 'Rename').getByRole('textbox', { name: 'Name', exact: true }).fill('renamed.jpg');
    await dialogButton(page, 'Rename', 'Rename').click();
    await page.waitForURL(/\/files\/ren\/renamed\.jpg$/);
    await loadedWidth(picture(page, 'renamed.jpg'));
    expect(existsSync(disk('ren/renamed.jpg'))).toBe(true);
    expect(existsSync(disk('ren/r.jpg'))).toBe(false);
  });

  it.each([
    ['light', 'en'],
    ['dark', 'en'],
    ['light', 'ar'],
  ])('is photographed at desktop and phone width: %s, %s', async (theme, locale) => {
    const { page } = browser;
    await updateAdmin(api, { locale });
    await page.evaluate((t) => localStorage.setItem('filemgr.theme', t === 'dark' ? 'dark' : ''), theme);
    const ready: [string, (p: Page) => Promise<unknown>][] = [
      ['a-photo.jpg', (p) => loadedWidth(picture(p, 'a-photo.jpg'))],
      ['c-scan.tif', (p) => loadedWidth(picture(p, 'c-scan.tif'))],
      ['e-clip.mp4', (p) => until(() => p.locator('video').evaluate((el: HTMLVideoElement) => el.readyState >= 2), 'the video')],
      ['f-song.mp3', (p) => until(() => p.locator('audio').evaluate((el: HTMLAudioElement) => el.readyState >= 1), 'the audio')],
      ['g-paper.pdf', (p) => until(() => p.frames().some((f) => f.url().startsWith('chrome-extension://')), 'the PDF viewer')],
      ['h-part.stl', (p) => p.locator('.preview-model[data-state="ready"]').waitFor()],
      ['j-data.bin', (p) => p.locator('.preview-card').waitFor()],
    ];
    for (const [width, height, label] of [[1280, 800, 'desktop'], [390, 844, 'phone']] as const) {
      await page.setViewportSize({ width, height });
      for (const [name, wait] of ready) {
        await open(`/gallery/${name}`);
        expect(await page.evaluate(() => document.documentElement.dir)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
        await wait(page);
        await page.mouse.move(width / 2, height / 2);
        await screenshot(page, `preview-${name.replace(/\W/g, '-')}-${label}-${theme}-${locale}`);
        const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.inner);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await updateAdmin(api, { locale: 'en' });
    await page.evaluate(() => localStorage.setItem('filemgr.theme', ''));
  });

  it.each([['a-photo.jpg', 'img[alt="a-photo.jpg"]'], ['f-song.mp3', 'audio'], ['j-data.bin', '.preview-card'], ['h-part.stl', '.preview-model[data-state="ready"]']])(
    'passes the axe-core WCAG 2.1 AA checks on the %s preview', async (name, ready) => {
      const page = await open(`/gallery/${name}`);
      await page.locator(ready).waitFor();
      // The buttons' fade has ended before axe reads colours.
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
      expect(await axeViolations(page)).toEqual([]);
    },
  );

  it('has shown no script errors', () => {
    // The 202/415-free run: nothing in the console but what the browser says about media.
    expect(problems.filter((p) => !/favicon/.test(p))).toEqual([]);
  });
});
