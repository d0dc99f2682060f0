// M7: the files screen in Chromium against dist/filemgr (noauth, so the page signs itself in).
// Opening a 10,000-entry folder (first rows painted, then idle) against the API call alone made
// from the same page; scrolling a 100,000-entry folder to its end (longest frame against an idle
// page's, JS heap against the small folder's); the files screen's first-load JS+CSS.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { loadedGzip, withBrowser } from './browser';
import { median, type Benchmark, type Figure } from './measure';

const RUNS = 5;

async function makeFolder(dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const names = Array.from({ length: count }, (_, i) => `f-${String(i).padStart(6, '0')}.txt`);
  for (let i = 0; i < names.length; i += 512) await Promise.all(names.slice(i, i + 512).map((n) => writeFile(join(dir, n), '')));
}

/**
 * In the page: the API call alone, then the route change to the folder until its first rows paint,
 * and until the whole folder has arrived and the page is idle.
 */
async function openTimes(page: Page, folder: string): Promise<{ api: number; rows: number; idle: number }> {
  return page.evaluate(async (path) => {
    const token = localStorage.getItem('jwt') ?? '';
    const t0 = performance.now();
    await (await fetch(`/api/resources${path}`, { headers: { 'X-Auth': token } })).text();
    const api = performance.now() - t0;
    // No named helpers in here: the bundler would wrap them in a function the page lacks.
    const start = performance.now();
    history.pushState(null, '', `/files${path}`);
    dispatchEvent(new PopStateEvent('popstate'));
    while (!document.querySelector(`[data-path^="${path}f-"]`)) await new Promise((r) => requestAnimationFrame(r));
    const rows = (await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())))) - start;
    // A large folder's first rows show while the rest still arrives (the listbox is aria-busy).
    while (document.querySelector('[role="listbox"][aria-busy="true"]')) await new Promise((r) => requestAnimationFrame(r));
    await new Promise((r) => requestIdleCallback(r));
    return { api, rows, idle: performance.now() - start };
  }, folder);
}

async function backHome(page: Page): Promise<void> {
  await page.evaluate(() => {
    history.pushState(null, '', '/files/');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await page.waitForSelector('[data-path="/big10k/"]');
}

/** Scrolls to the end of the open folder, one jump a frame: the longest frame, the frames over 50 ms (step:ms) and the heap after. */
async function scrollToEnd(page: Page, last: string): Promise<{ longest: number; slow: string[]; heap: number }> {
  return page.evaluate(async (lastPath) => {
    let longest = 0;
    let previous = performance.now();
    const slow: string[] = [];
    for (let i = 0; i < 20_000 && !document.querySelector(`[data-path="${lastPath}"]`); i++) {
      window.scrollTo(0, document.documentElement.scrollHeight);
      const now = await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
      if (now - previous > 50) slow.push(`${i}:${(now - previous).toFixed(0)}`);
      longest = Math.max(longest, now - previous);
      previous = now;
    }
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    return { longest, slow, heap: memory?.usedJSHeapSize ?? 0 };
  }, last);
}

/** The longest of 120 frames of the same page doing nothing: the floor of the frame figure. */
async function idleFrame(page: Page): Promise<{ longest: number; heap: number }> {
  return page.evaluate(async () => {
    let longest = 0;
    let previous = performance.now();
    for (let i = 0; i < 120; i++) {
      const now = await new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
      longest = Math.max(longest, now - previous);
      previous = now;
    }
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    return { longest, heap: memory?.usedJSHeapSize ?? 0 };
  });
}

export const filesScreenBenchmark: Benchmark = {
  name: 'files',
  title: 'M7: the files screen in Chromium (dist/filemgr)',
  async run(log) {
    const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-files-'));
    try {
      log('  making folders of 10,000 and 100,000 entries');
      await makeFolder(join(dir, 'root/big10k'), 10_000);
      await makeFolder(join(dir, 'root/big100k'), 100_000);
      const argsFor = (port: number) => ['--port', String(port), '--root', join(dir, 'root'), '--database', join(dir, 'filemgr.json'), '--noauth'];
      const figures: Figure[] = [];
      const firstLoad = await loadedGzip(argsFor, { visit: async (page, origin) => void (await page.goto(`${origin}/files/`, { waitUntil: 'networkidle' })) });
      figures.push({ label: 'JS+CSS of the files screen, gzip (budget 250 KB)', value: firstLoad, unit: 'B' });
      await withBrowser(argsFor, async (page, origin) => {
        await page.goto(`${origin}/files/`);
        await page.waitForSelector('[data-path="/big10k/"]');
        const idle = await idleFrame(page);
        const runs: { api: number; rows: number; idle: number }[] = [];
        for (let i = 0; i < RUNS; i++) {
          runs.push(await openTimes(page, '/big10k/'));
          log(`  open 10k run ${i + 1}/${RUNS}: api ${runs.at(-1)?.api.toFixed(0)} ms, rows ${runs.at(-1)?.rows.toFixed(0)} ms`);
          await backHome(page);
        }
        const api = { label: 'GET of the folder alone, same page', value: median(runs.map((r) => r.api)) };
        figures.push({ label: 'open 10k folder: first rows painted (median)', value: median(runs.map((r) => r.rows)), unit: 'ms', baseline: api });
        figures.push({ label: 'open 10k folder: idle (median)', value: median(runs.map((r) => r.idle)), unit: 'ms', baseline: api });
        log('  scrolling the 100k folder to its end');
        await page.goto(`${origin}/files/big100k/`);
        await page.waitForSelector('[data-path="/big100k/f-000000.txt"]');
        await page.waitForSelector('[role="listbox"]:not([aria-busy])');
        const scrolled = await scrollToEnd(page, '/big100k/f-099999.txt');
        log(`  frames over 50 ms: ${scrolled.slow.length}${scrolled.slow.length > 0 ? ` (step:ms ${scrolled.slow.slice(0, 20).join(' ')})` : ''}`);
        figures.push({ label: 'scroll 100k to the end: longest frame (goal 50)', value: scrolled.longest, unit: 'ms', baseline: { label: 'an idle frame', value: idle.longest } });
        figures.push({ label: 'scroll 100k: JS heap (goal 150 MB)', value: scrolled.heap, unit: 'B', baseline: { label: 'the heap on the root folder', value: idle.heap } });
      });
      return figures;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
