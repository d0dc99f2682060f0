// M9: the preview in Chromium against dist/filemgr (noauth). The files screen's first-load JS+CSS
// (the preview must not add to it), what opening each kind of preview adds (its lazy chunks), and
// the time from pressing Right to the next image being on screen when its big preview was
// prefetched, against a GET of that file's info from the same page.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { loadedGzip, withBrowser } from './browser';
import { median, type Benchmark, type Figure } from './measure';

const IMAGES = 12;
const name = (i: number): string => `p-${String(i).padStart(3, '0')}.jpg`;

async function makeRoot(root: string): Promise<void> {
  await mkdir(join(root, 'pics'), { recursive: true });
  for (let i = 0; i < IMAGES; i++) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600"><rect width="100%" height="100%" fill="hsl(${i * 30},60%,45%)"/><circle cx="1200" cy="800" r="${300 + i * 20}" fill="#fff" opacity="0.6"/></svg>`;
    await writeFile(join(root, 'pics', name(i)), await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer());
  }
  await writeFile(join(root, 'model.stl'), 'solid s\nfacet normal 0 0 1\n outer loop\n  vertex 0 0 0\n  vertex 1 0 0\n  vertex 0 1 0\n endloop\nendfacet\nendsolid s\n');
  // A camera raw is served as it is (no big preview), so the browser decodes it with utif2.
  await writeFile(join(root, 'scan.dng'), await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366aa' } }).tiff().toBuffer());
}

/** Waits (in the page) until the preview shows `alt` decoded. */
async function shown(page: Page, alt: string): Promise<void> {
  // A polling evaluate rather than waitForFunction: the page's CSP forbids eval.
  await page.evaluate(async (a) => {
    for (;;) {
      const img = document.querySelector<HTMLImageElement>(`img[alt="${a}"]`);
      if (img?.complete === true && img.naturalWidth > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }, alt);
}

/** Waits until the big preview of `file` has been fetched (the prefetch). */
async function prefetched(page: Page, file: string): Promise<void> {
  await page.evaluate(async (n) => {
    while (!performance.getEntriesByType('resource').some((e) => e.name.includes(`/api/preview/big/pics/${n}`))) {
      await new Promise((r) => setTimeout(r, 10));
    }
  }, file);
}

type Marks = Record<'pressedAt' | 'shownAt', number>;

/** Presses Right on image `i` once the big preview of image i+1 has arrived; ms from the key to the picture painted. */
async function stepTime(page: Page, i: number): Promise<number> {
  await shown(page, name(i));
  await prefetched(page, name(i + 1));
  // Armed (and awaited) before the key is sent: the key event must not overtake the listener.
  // No named helpers in the page functions: the bundler would wrap them in a function the page lacks.
  await page.evaluate((next) => {
    const marks = window as unknown as Marks;
    marks.pressedAt = 0;
    marks.shownAt = 0;
    addEventListener('keydown', (e) => (marks.pressedAt = e.timeStamp), { capture: true, once: true });
    void (async () => {
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        const img = document.querySelector<HTMLImageElement>(`img[alt="${next}"]`);
        if (marks.pressedAt && img?.complete && img.naturalWidth > 0) break;
      }
      // The frame after the one that found it decoded: the picture is painted by then.
      marks.shownAt = await new Promise<number>((r) => requestAnimationFrame(r));
    })();
  }, name(i + 1));
  await page.keyboard.press('ArrowRight');
  return page.evaluate(async () => {
    const marks = window as unknown as Marks;
    while (!marks.shownAt) await new Promise((r) => setTimeout(r, 10));
    return marks.shownAt - marks.pressedAt;
  });
}

/** A GET of a file's info from the page: the floor of any navigation that asks the server. */
function infoTime(page: Page, path: string): Promise<number> {
  return page.evaluate(async (p) => {
    const token = localStorage.getItem('jwt') ?? '';
    const t0 = performance.now();
    await (await fetch(`/api/resources${p}`, { headers: { 'X-Auth': token } })).text();
    return performance.now() - t0;
  }, path);
}

export const previewBenchmark: Benchmark = {
  name: 'preview',
  title: 'M9: the preview in Chromium (dist/filemgr)',
  async run(log) {
    const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-preview-'));
    try {
      await makeRoot(join(dir, 'root'));
      const argsFor = (port: number) => ['--port', String(port), '--root', join(dir, 'root'), '--database', join(dir, 'filemgr.json'), '--noauth'];
      const home = async (page: Page, origin: string): Promise<void> => void (await page.goto(`${origin}/files/`, { waitUntil: 'networkidle' }));
      // Opens a preview from the files screen and waits until its viewer shows the file.
      const open = (path: string, ready: string) => async (page: Page): Promise<void> => {
        await page.evaluate((p) => {
          history.pushState(null, '', `/files${p}`);
          dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        await page.waitForSelector(ready);
        await page.waitForLoadState('networkidle');
      };
      const figures: Figure[] = [];
      figures.push({ label: 'JS+CSS of the files screen, gzip (budget 250 KB)', value: await loadedGzip(argsFor, { visit: home }), unit: 'B' });
      // (Not the PDF: Chromium's own viewer then loads chrome:// scripts, which are not ours to count.)
      const viewers = [
        ['image', '/pics/p-000.jpg', 'img[alt="p-000.jpg"]'],
        ['3D model', '/model.stl', '.preview-model[data-state="ready"]'],
        ['camera raw (DNG)', '/scan.dng', 'img[alt="scan.dng"][src^="blob:"]'],
      ] as const;
      for (const [label, path, ready] of viewers) {
        log(`  opening a ${label} preview`);
        figures.push({ label: `opening a ${label} preview adds, gzip`, value: await loadedGzip(argsFor, { before: home, visit: open(path, ready) }), unit: 'B' });
      }
      log('  stepping through the images with Right');
      await withBrowser(argsFor, async (page, origin) => {
        await page.goto(`${origin}/files/pics/${name(0)}`);
        const steps: number[] = [];
        const gets: number[] = [];
        for (let i = 0; i < IMAGES - 1; i++) {
          steps.push(await stepTime(page, i));
          gets.push(await infoTime(page, `/pics/${name(i + 1)}`));
          log(`  Right ${i + 1}/${IMAGES - 1}: ${steps.at(-1)?.toFixed(0)} ms`);
        }
        const get = { label: 'GET of the file info alone, same page', value: median(gets) };
        figures.push({ label: 'Right to the next (prefetched) image shown, median (goal 100)', value: median(steps), unit: 'ms', baseline: get });
        figures.push({ label: 'Right to the next image shown, slowest', value: Math.max(...steps), unit: 'ms', baseline: get });
      });
      return figures;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
