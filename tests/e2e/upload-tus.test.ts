import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { freePort } from '../../build/free-port';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFolder, until, untilOnDisk } from './support/files';
import { launchBrowser, shutDown, startServer, type BrowserHandle, type ServerHandle } from './support/harness';
import { apiAs, signIn, watchProblems, type ApiClient } from './support/session';
import { holdTus, patchOffset, sha256File, uploadFiles, uploads } from './support/upload';

const MIB = 1024 * 1024;
const CHUNK = 10 * MIB;

/** Writes `bytes` random bytes to `path` and returns their SHA-256. */
function randomFile(path: string, bytes: number): string {
  const data = randomBytes(bytes);
  writeFileSync(path, data);
  return sha256File(path);
}

/** Every tus request the page sends, in order (method and Upload-Offset). */
function recordTus(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/tus/')) seen.push(r);
  });
  return seen;
}

/** PUT /api/settings with the tus settings changed (the rest as read). */
async function setTus(api: ApiClient, tus: { chunkSize: number; retryCount: number }): Promise<void> {
  const settings = await api.json<Record<string, unknown>>('/api/settings');
  const { status, text } = await api.call('PUT', '/api/settings', { ...settings, tus });
  if (status !== 200) throw new Error(`PUT /api/settings answered ${status}: ${text}`);
}

function errorNotice(page: Page, text: string) {
  return page.getByRole('alert').filter({ hasText: text });
}

describe('browser uploads through tus and the raw POST', () => {
  let server: ServerHandle;
  let browser: BrowserHandle;
  let api: ApiClient;
  let problems: string[];
  let port: number;
  const disk = (rel: string): string => join(server.sandbox.root, rel);
  const local = (name: string): string => join(server.sandbox.dir, name);

  beforeAll(async () => {
    port = await freePort();
    // A fixed port: the restart test brings the server back at the same address.
    server = await startServer({ tree: { big: null, again: null, restart: null, raw: null, fail: null }, args: ['--port', String(port)] });
    api = await apiAs(server);
    browser = await launchBrowser();
    problems = watchProblems(browser.page);
    await signIn(browser.page, server);
  });

  afterAll(() => shutDown(browser, server));

  it('uploads 50 MB through tus in 10 MiB chunks, progress shown before the end, bytes intact', async () => {
    const { page } = browser;
    const sum = randomFile(local('big.bin'), 50 * MIB);
    await openFolder(page, server, { folder: '/big/' });
    const seen = recordTus(page);
    const hold = await holdTus(page, (r) => patchOffset(r) === 3 * CHUNK);
    try {
      await uploadFiles(page, [local('big.bin')]);
      await until(() => hold.held.length === 1, 'the fourth chunk held', 30_000);
      const overall = uploads(page).getByRole('progressbar', { name: 'Upload progress', exact: true });
      await until(async () => Number(await overall.getAttribute('aria-valuenow')) === 60, 'overall progress at 60%');
      expect(await uploads(page).getByRole('progressbar', { name: 'big.bin', exact: true }).getAttribute('aria-valuenow')).toBe('60');
      await uploads(page).getByText(/\/s · .+ left$/).waitFor();
    } finally {
      for (const h of hold.held) await h.release();
      await hold.stop();
    }
    await uploads(page).waitFor({ state: 'hidden', timeout: 60_000 });
    await untilOnDisk(disk('big/big.bin'));
    expect(statSync(disk('big/big.bin')).size).toBe(50 * MIB);
    expect(sha256File(disk('big/big.bin'))).toBe(sum);
    const patches = seen.filter((r) => r.method() === 'PATCH').map(patchOffset);
    expect(patches).toEqual([0, 1, 2, 3, 4].map((i) => i * CHUNK));
    expect(seen[0]?.method()).toBe('POST');
    expect(seen[0]?.url()).toMatch(/\/api\/tus\/big\/big\.bin\?override=false$/);
  });

  it('warns before leaving while an upload runs, and resumes it after the reload from the stored fingerprint', async () => {
    const { page } = browser;
    const sum = randomFile(local('again.bin'), 25 * MIB);
    await openFolder(page, server, { folder: '/again/' });
    const hold = await holdTus(page, (r) => patchOffset(r) === CHUNK);
    const warnings: string[] = [];
    page.once('dialog', (d) => {
      warnings.push(d.type());
      void d.accept();
    });
    try {
      await uploadFiles(page, [local('again.bin')]);
      await until(() => hold.held.length === 1, 'the second chunk held', 30_000);
      await page.reload();
    } finally {
      for (const h of hold.held) await h.abort();
      await hold.stop();
    }
    expect(warnings).toEqual(['beforeunload']);
    await page.getByText('It feels lonely here...', { exact: true }).waitFor();
    const seen = recordTus(page);
    await uploadFiles(page, [local('again.bin')]);
    await uploads(page).waitFor({ state: 'hidden', timeout: 60_000 });
    await untilOnDisk(disk('again/again.bin'));
    expect(sha256File(disk('again/again.bin'))).toBe(sum);
    // No new upload: a HEAD asks for the offset, and the chunks go on from the second.
    expect(seen.map((r) => r.method())).toEqual(['HEAD', 'PATCH', 'PATCH']);
    expect(seen.filter((r) => r.method() === 'PATCH').map(patchOffset)).toEqual([CHUNK, 2 * CHUNK]);
  });

  it('resumes a tus upload after the server was restarted mid-way', async () => {
    const { page } = browser;
    const sum = randomFile(local('restart.bin'), 30 * MIB);
    await openFolder(page, server, { folder: '/restart/' });
    const seen = recordTus(page);
    const hold = await holdTus(page, (r) => patchOffset(r) === CHUNK);
    try {
      await uploadFiles(page, [local('restart.bin')]);
      await until(() => hold.held.length === 1, 'the second chunk held', 30_000);
      expect(await server.stop()).toBe(0);
      // Nothing was in flight (the chunk waits in the browser), so nothing waited for the grace period.
      expect(server.stdout()).not.toContain('were cut off');
      server = await startServer({ sandbox: server.sandbox, args: ['--port', String(port)] });
      // The held chunk fails as a broken connection would; tus retries after 1 s.
      await hold.held[0]?.abort();
    } finally {
      await hold.stop();
    }
    await uploads(page).waitFor({ state: 'hidden', timeout: 60_000 });
    await untilOnDisk(disk('restart/restart.bin'));
    expect(sha256File(disk('restart/restart.bin'))).toBe(sum);
    const methods = seen.map((r) => `${r.method()} ${patchOffset(r)}`);
    expect(methods).toEqual(['POST -1', 'PATCH 0', `PATCH ${CHUNK}`, 'HEAD -1', `PATCH ${CHUNK}`, `PATCH ${2 * CHUNK}`]);
  });

  it('reports a failed chunk as "Upload failed: ..." and a creation without 201 as "Failed to create an upload"', async () => {
    const { page } = browser;
    await openFolder(page, server, { folder: '/fail/' });
    await page.route(/\/api\/tus\/fail\/refused\.txt/, (route) =>
      route.request().method() === 'PATCH' ? route.fulfill({ status: 403, body: '403 Forbidden\n' }) : route.continue());
    await page.route(/\/api\/tus\/fail\/odd\.txt/, (route) =>
      route.fulfill({ status: 200, headers: { Location: '/api/tus/fail/odd.txt' }, body: '200 OK\n' }));
    await uploadFiles(page, [{ name: 'refused.txt', content: 'r' }]);
    // The server's 403 reads as its sentence, never the raw status line.
    await errorNotice(page, "Upload failed: You don't have permissions to access this.").waitFor();
    await uploadFiles(page, [{ name: 'odd.txt', content: 'o' }]);
    await errorNotice(page, 'Failed to create an upload').waitFor();
    await page.unrouteAll();
    expect(existsSync(disk('fail/odd.txt'))).toBe(false);
  });

  it('sends the raw POST with progress when the chunk size is 0, and says "001 Connection aborted" when it breaks', async () => {
    const { page } = browser;
    await setTus(api, { chunkSize: 0, retryCount: 1 });
    try {
      await openFolder(page, server, { folder: '/raw/' });
      const posts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().includes('/api/resources/')) posts.push(new URL(r.url()).pathname + new URL(r.url()).search);
      });
      const data = randomBytes(3 * MIB);
      await uploadFiles(page, [{ name: 'plain.bin', content: data }]);
      await uploads(page).waitFor({ state: 'hidden' });
      await untilOnDisk(disk('raw/plain.bin'));
      expect(readFileSync(disk('raw/plain.bin')).equals(data)).toBe(true);
      expect(posts).toEqual(['/api/resources/raw/plain.bin?override=false']);

      await page.route(/\/api\/resources\/raw\/broken\.bin/, (route) => route.abort('connectionreset'));
      await uploadFiles(page, [{ name: 'broken.bin', content: 'b' }]);
      await errorNotice(page, '001 Connection aborted').waitFor();
      await page.unrouteAll();
    } finally {
      await setTus(api, { chunkSize: CHUNK, retryCount: 5 });
    }
  });

  it('runs without a script error', () => {
    // The broken connections of the tests above are logged by the browser as failed loads.
    expect(problems.filter((p) => !/Failed to load resource|ERR_CONNECTION_RESET|net::ERR/.test(p))).toEqual([]);
  });
});
