import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { item, openFolder, updateAdmin } from './support/files';
import { launchBrowser, screenshot, startServer, shutDown, type BrowserHandle, type ServerHandle } from './support/harness';
import { jpeg, pdf, silentMp3 } from './support/media';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';

const LONG = 'a holiday picture with a name far too long for its card in the gallery.jpg';

/** How every rendered card of the listing sits: its box, its picture's box and whether its name shows. */
interface Card {
  name: string;
  top: number;
  bottom: number;
  width: number;
  mediaHeight: number;
  /** The name cell is inside the card and nothing covers its middle. */
  nameShows: boolean;
}

/** The cards wholly in the window. */
function cards(page: Page): Promise<Card[]> {
  return page.locator('[role="listbox"]').evaluate((box) => [...box.querySelectorAll<HTMLElement>('[role="option"]')].filter((option) => {
    // Wholly in the window, below the header (elementFromPoint sees only what is on screen).
    const rect = option.getBoundingClientRect();
    const top = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
    return rect.top >= top && rect.bottom <= window.innerHeight;
  }).map((option) => {
    const rect = option.getBoundingClientRect();
    const name = option.querySelector('.entry-name')?.getBoundingClientRect();
    const media = option.querySelector('.entry-media')?.getBoundingClientRect();
    const middle = name ? document.elementFromPoint(name.left + name.width / 2, name.top + name.height / 2) : null;
    const inside = name !== undefined && name.top >= rect.top && name.bottom <= rect.bottom;
    return {
      name: option.getAttribute('aria-label') ?? '',
      top: rect.top,
      bottom: rect.bottom,
      width: rect.width,
      mediaHeight: media?.height ?? 0,
      nameShows: inside && middle !== null && option.contains(middle),
    };
  }));
}

/** Every card shows its name, no card reaches into the next row, and pictures keep their 4:3 shape. */
async function expectCardsApart(page: Page, count: number): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const seen = new Set<string>();
  for (let step = 0; step < 10 && seen.size < count; step++) {
    const shown = await cards(page);
    for (const card of shown) {
      expect(card.nameShows, `the name of ${card.name} shows`).toBe(true);
      expect(Math.abs(card.mediaHeight - card.width * 0.75), `the picture of ${card.name} is 4:3`).toBeLessThan(24);
      seen.add(card.name);
    }
    const rows = [...new Set(shown.map((card) => card.top))].sort((a, b) => a - b);
    for (const card of shown) {
      const next = rows.find((top) => top > card.top);
      if (next !== undefined) expect(card.bottom, `${card.name} ends above the next row`).toBeLessThanOrEqual(next);
    }
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(150);
  }
  expect(seen.size).toBe(count);
}

describe('the gallery view and the file-type icons', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];

  beforeAll(async () => {
    const pictures: Record<string, Buffer> = {};
    for (const n of [1, 2, 3, 4, 5, 6, 7]) pictures[`pics/photo-${n}.jpg`] = await jpeg(n % 2 ? 1200 : 800, n % 2 ? 800 : 1200, `photo ${n}`);
    pictures[`pics/${LONG}`] = await jpeg(900, 600, 'long');
    server = await startServer({
      tree: {
        ...pictures,
        'kinds/paper.pdf': pdf('Hello'),
        'kinds/backup.zip': Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]),
        'kinds/song.mp3': silentMp3(),
        'kinds/main.ts': 'export const x = 1;\n',
        'kinds/README.md': '# Title\n',
        'kinds/notes.txt': 'notes\n',
        'kinds/sheet.csv': 'a,b\n1,2\n',
        'kinds/firmware.bin': Buffer.from([0, 1, 2, 3, 0, 0, 0]),
        'kinds/Music': null,
      },
    });
    api = await apiAs(server);
    await updateAdmin(api, { viewMode: 'mosaic gallery' });
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('places gallery rows as far apart as their cards are tall on a desktop', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/pics/', expect: 'photo-1.jpg' });
    await page.waitForLoadState('networkidle');
    await expectCardsApart(page, 8);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'gallery-desktop');
  });

  it('does so on a phone too, in Arabic and dark', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await updateAdmin(api, { locale: 'ar' });
      await page.evaluate(() => localStorage.setItem('filemgr.theme', 'dark'));
      // The listbox's name is in Arabic now: the options are found by their (untranslated) names.
      await page.goto(`${server.url}/files/pics/`);
      await page.getByRole('option', { name: 'photo-1.jpg', exact: true }).waitFor();
      await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      await page.waitForLoadState('networkidle');
      await expectCardsApart(page, 8);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, 'gallery-phone-ar-dark');
    } finally {
      await updateAdmin(api, { locale: 'en' });
      await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('shows a cut name in full as its tooltip, and no tooltip on a name that fits', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/pics/', expect: LONG });
    expect(await item(page, LONG).locator('.entry-name').getAttribute('title')).toBe(LONG);
    expect(await item(page, 'photo-1.jpg').locator('.entry-name').getAttribute('title')).toBeNull();
  });

  it.each([
    ['paper.pdf', 'pdf'],
    ['backup.zip', 'archive'],
    ['song.mp3', 'audio'],
    ['main.ts', 'code'],
    ['README.md', 'markdown'],
    ['notes.txt', 'text'],
    ['sheet.csv', 'spreadsheet'],
    ['firmware.bin', 'file'],
    ['Music', 'folder'],
  ])('gives %s the icon of a %s', async (name, kind) => {
    const { page } = browser;
    await updateAdmin(api, { viewMode: 'list' });
    if (!page.url().endsWith('/files/kinds/')) await openFolder(page, server, { folder: '/kinds/', expect: 'paper.pdf' });
    await expect.poll(() => item(page, name).locator(`svg.kind-${kind}`).count()).toBe(1);
  });

  it('looks right with its icons, light and dark', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/kinds/', expect: 'paper.pdf' });
    await screenshot(page, 'icons-list');
    await page.evaluate(() => localStorage.setItem('filemgr.theme', 'dark'));
    await page.reload();
    await item(page, 'paper.pdf').waitFor();
    await screenshot(page, 'icons-list-dark');
    await page.evaluate(() => localStorage.removeItem('filemgr.theme'));
  });

  it('runs without a script error', () => {
    expect(problems).toEqual([]);
  });
});
