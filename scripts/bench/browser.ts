// Chromium for the benchmarks that measure the web app: launched headless from Debian's package,
// with a throwaway profile, against a filemgr started from dist/.
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { freePort, startUntil200, stop } from './measure';

export const EXECUTABLE = fileURLToPath(new URL('../../dist/filemgr', import.meta.url));

/** The gzip bytes a GET of `url` sends. */
export function gzipBytesOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve(bytes));
    }).on('error', reject).end();
  });
}

/** Runs `work` with a page of a fresh headless Chromium against filemgr started with `argsFor(port)`. */
export async function withBrowser<T>(argsFor: (port: number) => string[], work: (page: Page, origin: string) => Promise<T>): Promise<T> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const run = await startUntil200(EXECUTABLE, argsFor(port), { url: `${origin}/health`, env: { HOME: tmpdir() }, cwd: tmpdir() });
  const profile = await mkdtemp(join(tmpdir(), 'filemgr-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--enable-precise-memory-info'],
  });
  try {
    return await work(context.pages()[0] ?? (await context.newPage()), origin);
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    await stop(run.child);
  }
}

export type PageVisit = (page: Page, origin: string) => Promise<void>;

/**
 * The gzip bytes of the JS and CSS that `visit` makes the browser load, minus what `before` had
 * already loaded: a page's first load, or what one more screen adds (its lazy chunks).
 */
export function loadedGzip(argsFor: (port: number) => string[], visits: { before?: PageVisit; visit: PageVisit }): Promise<number> {
  return withBrowser(argsFor, async (page, origin) => {
    const urls = new Set<string>();
    page.on('response', (res) => {
      if (['script', 'stylesheet'].includes(res.request().resourceType())) urls.add(res.url());
    });
    await visits.before?.(page, origin);
    const seen = new Set(urls);
    await visits.visit(page, origin);
    const sizes = await Promise.all([...urls].filter((u) => !seen.has(u)).map(gzipBytesOf));
    return sizes.reduce((a, b) => a + b, 0);
  });
}
