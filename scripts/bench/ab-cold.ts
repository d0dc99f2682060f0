// Diagnostic (not a benchmark): cold page loads of /files/ (HTTP cache cleared) against several
// builds at once, interleaved so that the machine's drift falls on every build alike:
// npx tsx --tsconfig build/tsconfig.json scripts/bench/ab-cold.ts <loads> <dist/filemgr> <other/filemgr>...
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { chromium } from 'playwright-core';
import { freePort, median, startUntil200, stop } from './measure';
import { signInPage } from './web-load';

const [count = '15', ...executables] = process.argv.slice(2);
const dir = await mkdtemp(join(tmpdir(), 'ab-cold-'));
await mkdir(join(dir, 'root', 'docs'), { recursive: true });
for (let i = 0; i < 20; i++) await writeFile(join(dir, 'root', 'docs', `d-${i}.txt`), `${i}\n`);
const hash = await bcrypt.hash('bench-password-1234', 10);
const servers = await Promise.all(executables.map(async (exe, i) => {
  const port = await freePort();
  const run = await startUntil200(exe, ['--port', String(port), '--root', join(dir, 'root'), '--database', join(dir, `db-${i}.json`), '--password', hash], { url: `http://127.0.0.1:${port}/health`, env: { HOME: tmpdir() }, cwd: tmpdir() });
  return { exe, origin: `http://127.0.0.1:${port}`, run, content: [] as number[], dcl: [] as number[] };
}));
const context = await chromium.launchPersistentContext(await mkdtemp(join(tmpdir(), 'ab-chromium-')), {
  executablePath: '/usr/bin/chromium', headless: true, viewport: { width: 1280, height: 800 },
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const page = context.pages()[0] ?? (await context.newPage());
await page.addInitScript(`new MutationObserver((_, o) => { if (document.querySelector('[role="option"]')) { o.disconnect(); requestAnimationFrame(() => { window.__c = performance.now(); }); } }).observe(document, { childList: true, subtree: true });`);
const cdp = await context.newCDPSession(page);
for (const s of servers) { await signInPage(page, s.origin); await page.goto(`${s.origin}/files/`); await page.waitForSelector('[role="option"]'); }
for (let i = 0; i < Number(count); i++) {
  for (const s of servers) {
    await cdp.send('Network.clearBrowserCache');
    await page.goto(`${s.origin}/files/`, { waitUntil: 'commit' });
    const r = await page.evaluate(async () => {
      const w = window as unknown as { __c?: number };
      while (w.__c === undefined) await new Promise((res) => setTimeout(res, 5));
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { content: w.__c, dcl: nav.domContentLoadedEventEnd };
    });
    s.content.push(r.content);
    s.dcl.push(r.dcl);
    await page.waitForLoadState('networkidle');
  }
}
for (const s of servers) console.log(`${s.exe}: content median ${median(s.content).toFixed(0)} ms (${Math.min(...s.content).toFixed(0)}-${Math.max(...s.content).toFixed(0)}), DOMContentLoaded ${median(s.dcl).toFixed(0)} ms`);
await context.close();
for (const s of servers) await stop(s.run.child);
await rm(dir, { recursive: true, force: true });
