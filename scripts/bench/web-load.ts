// U1: how fast the web app gets on screen, in Chromium against dist/filemgr with a password
// (a signed-in page: the token in localStorage, renewed on load, as after a real sign-in).
// A full load of /files/ from navigation start to the listing's first option painted, with the
// HTTP cache warm (a reload) and cleared, against DOMContentLoaded of the same loads; and the
// first open of each lazy screen (web-open.ts) against opening it a second time. Goals: content
// within 300 ms, a first open within 100 ms. Medians; the spread is in the label or the log.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import type { Page } from 'playwright-core';
import { withBrowser } from './browser';
import { median, type Benchmark, type Figure } from './measure';
import { firstOpens } from './web-open';

const WARM_LOADS = 9;
const COLD_LOADS = 5;
const PASSWORD = 'bench-password-1234';

async function makeRoot(root: string): Promise<void> {
  await mkdir(join(root, 'docs'), { recursive: true });
  await writeFile(join(root, 'notes.txt'), 'some notes\n'.repeat(50));
  for (let i = 0; i < 20; i++) await writeFile(join(root, 'docs', `d-${i}.txt`), `${i}\n`);
}

/** Signs the page in: a token from POST /api/login kept where the app keeps it. */
export async function signInPage(page: Page, origin: string): Promise<void> {
  const answer = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD, recaptcha: '' }),
  });
  if (answer.status !== 200) throw new Error(`login answered ${answer.status}`);
  const token = await answer.text();
  await page.goto(`${origin}/login`);
  await page.evaluate((t) => localStorage.setItem('jwt', t), token);
}

// Runs in every document before its scripts: notes when the first listing option is inserted,
// then the frame after it (the content is on screen).
const CONTENT_PROBE = `(() => {
  const seen = () => {
    if (!document.querySelector('[role="option"]')) return false;
    requestAnimationFrame(() => { window.__benchContent = performance.now(); });
    return true;
  };
  new MutationObserver((_, observer) => { if (seen()) observer.disconnect(); })
    .observe(document, { childList: true, subtree: true });
})();`;

interface Load {
  content: number;
  dcl: number;
}

/** One full load of /files/: navigation start to content painted, and to DOMContentLoaded. */
async function loadOnce(page: Page, origin: string): Promise<Load> {
  await page.goto(`${origin}/files/`, { waitUntil: 'commit' });
  return page.evaluate(async () => {
    const w = window as unknown as { __benchContent?: number };
    while (w.__benchContent === undefined) await new Promise((r) => setTimeout(r, 5));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { content: w.__benchContent, dcl: nav?.domContentLoadedEventEnd ?? 0 };
  });
}

async function loads(page: Page, origin: string, how: { count: number; cold: boolean }): Promise<Load[]> {
  const { count, cold } = how;
  const cdp = await page.context().newCDPSession(page);
  const runs: Load[] = [];
  for (let i = 0; i < count; i++) {
    if (cold) await cdp.send('Network.clearBrowserCache');
    runs.push(await loadOnce(page, origin));
    // Let the previous page's idle work finish before the next load.
    await page.waitForLoadState('networkidle');
  }
  await cdp.detach();
  return runs;
}

function spread(values: number[]): string {
  return `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)} ms`;
}

function loadFigures(label: string, runs: Load[], log: (line: string) => void): Figure {
  const content = runs.map((r) => r.content);
  const dcl = runs.map((r) => r.dcl);
  log(`  ${label}: content ${content.map((v) => v.toFixed(0)).join(' ')} ms (DOMContentLoaded ${dcl.map((v) => v.toFixed(0)).join(' ')})`);
  return {
    label: `${label} (${spread(content)})`,
    value: median(content),
    unit: 'ms',
    baseline: { label: 'DOMContentLoaded', value: median(dcl) },
  };
}

export const webLoadBenchmark: Benchmark = {
  name: 'web',
  title: 'U1: page load and first open of the lazy screens in Chromium (dist/filemgr, signed in)',
  async run(log) {
    const dir = await mkdtemp(join(tmpdir(), 'filemgr-bench-web-'));
    try {
      await makeRoot(join(dir, 'root'));
      const hash = await bcrypt.hash(PASSWORD, 10);
      const argsFor = (port: number) => ['--port', String(port), '--root', join(dir, 'root'), '--database', join(dir, 'filemgr.json'), '--password', hash];
      return await withBrowser(argsFor, async (page, origin) => {
        await page.addInitScript(CONTENT_PROBE);
        await signInPage(page, origin);
        await loadOnce(page, origin);
        const figures = [
          loadFigures('page load, cache warm', await loads(page, origin, { count: WARM_LOADS, cold: false }), log),
          loadFigures('page load, cache cleared', await loads(page, origin, { count: COLD_LOADS, cold: true }), log),
        ];
        figures.push(...(await firstOpens(page, origin, log)));
        return figures;
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
