// For the diagnostics of a cold load (trace-cold.ts, trace-main-thread.ts): dist/filemgr with a
// password on a small temp root, a Chromium page signed in that has opened /files/ once, and a
// CDP session to clear the HTTP cache with; the temp root is removed afterwards.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import type { CDPSession, Page } from 'playwright-core';
import { withBrowser } from './browser';
import { signInPage } from './web-load';

export async function withSignedInFiles(work: (page: Page, origin: string, cdp: CDPSession) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'filemgr-diagnostic-'));
  try {
    await mkdir(join(dir, 'root', 'docs'), { recursive: true });
    await writeFile(join(dir, 'root', 'n.txt'), 'x');
    const hash = await bcrypt.hash('bench-password-1234', 10);
    await withBrowser((p) => ['--port', String(p), '--root', join(dir, 'root'), '--database', join(dir, 'db.json'), '--password', hash], async (page, origin) => {
      await signInPage(page, origin);
      await page.goto(`${origin}/files/`);
      await page.waitForSelector('[role="option"]');
      await work(page, origin, await page.context().newCDPSession(page));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
